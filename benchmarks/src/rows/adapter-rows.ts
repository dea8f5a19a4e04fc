import { aiSdkTools } from '@milpa/ai-sdk';
import { MilpaToolkit } from '@milpa/langchain';
import { toAgentsTools } from '@milpa/openai-agents';
import { RunContext, invokeFunctionTool, tool } from '@openai/agents';
import type { CallRow } from '../harness/call-row.js';
import { assertCheck } from '../harness/assert-check.js';
import { BENCH_ARGS, BENCH_RESULT, BENCH_TOOL_DESCRIPTION, BENCH_TOOL_NAME, INVALID_ARGS, benchZodSchema } from '../fixtures/bench-tool.js';
import { createProductionLogger, type DiscardStream } from '../fixtures/discard-stream.js';
import { createMilpaSetup, type MilpaSetup } from '../fixtures/milpa-setup.js';

/** Row 3's production wiring (pino at info to a discarding stream, audit on, dispatcher), one registry per row. */
function productionSetup(budget: number): MilpaSetup & { readonly stream: DiscardStream } {
  const production = createProductionLogger();
  return { ...createMilpaSetup({ logger: production.logger, budget }), stream: production.stream };
}

/** What one adapter row calls: `call(args, n)` makes call number `n` and returns what the framework hands the model. */
interface AdapterCall {
  readonly call: (args: Readonly<Record<string, unknown>>, n: number) => Promise<unknown>;
  /** True when the framework's answer is the tool's result. */
  readonly succeeded: (answer: unknown) => boolean;
  /** True when the framework's answer is Milpa's refusal of invalid arguments. */
  readonly refusedAsInvalid: (answer: unknown) => boolean;
}

/** A row timing `adapter.call`, checked for one audit line per call, the result, and a refusal of invalid arguments. */
function adapterRow(id: string, label: string, baseline: string, stream: DiscardStream, adapter: AdapterCall, versus?: string): CallRow {
  const args = { ...BENCH_ARGS };
  let next = 0;
  return {
    id,
    label,
    group: 'adapters',
    baseline,
    ...(versus === undefined ? {} : { versus }),
    check: async () => {
      const linesBefore = stream.lines;
      const answer = await adapter.call(args, next++);
      assertCheck(adapter.succeeded(answer), `unexpected answer ${JSON.stringify(answer)}`);
      assertCheck(stream.lines === linesBefore + 1, 'the call did not write one audit line');
      const refused = await adapter.call({ ...INVALID_ARGS }, next++);
      assertCheck(adapter.refusedAsInvalid(refused), `invalid arguments gave ${JSON.stringify(refused)}`);
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) await adapter.call(args, next++);
    },
  };
}

const modelJson = new WeakMap<object, string>();

/** `JSON.stringify(args)`, computed once per arguments object. */
function modelJsonOf(args: Readonly<Record<string, unknown>>): string {
  let text = modelJson.get(args);
  if (text === undefined) {
    text = JSON.stringify(args);
    modelJson.set(args, text);
  }
  return text;
}

/** The function-call item the agent runner hands a tool: the model's JSON arguments and a fresh call id. */
function functionCallOf(args: Readonly<Record<string, unknown>>, n: number) {
  // The model's JSON text arrives ready-made: serialized once per arguments object, not timed.
  const input = modelJsonOf(args);
  const toolCall = {
    type: 'function_call' as const,
    callId: `call_${n}`,
    name: BENCH_TOOL_NAME,
    arguments: input,
    status: 'completed' as const,
  };
  return { input, details: { toolCall } };
}

/**
 * Row 10p: the OpenAI Agents SDK on its own, with the adapter row's logging: a plain `tool()` (zod
 * strict object, as row 10) whose `execute` writes row 2's pino line, called through
 * `invokeFunctionTool` with the model's JSON arguments and a function-call item, as A2 is.
 */
function createAgentsSdkRow(): CallRow {
  const production = createProductionLogger();
  const lookup = tool({
    name: BENCH_TOOL_NAME,
    description: BENCH_TOOL_DESCRIPTION,
    parameters: benchZodSchema(),
    execute: (args) => {
      const startedAt = performance.now();
      production.logger.info(
        { tool: BENCH_TOOL_NAME, principal: 'user:42', channel: 'mcp', took_ms: Math.round(performance.now() - startedAt), args },
        'tool call',
      );
      return BENCH_RESULT;
    },
  });
  const runContext = new RunContext();
  return adapterRow('10p', '@openai/agents alone: invokeFunctionTool, one pino line', 'A0', production.stream, {
    call: async (args, n) => {
      const { input, details } = functionCallOf(args, n);
      return invokeFunctionTool({ tool: lookup, runContext, input, details });
    },
    succeeded: (output) => output === BENCH_RESULT,
    // The SDK's refusal of invalid arguments is its error text (zod's message), not Milpa's code.
    refusedAsInvalid: (output) => typeof output === 'string' && output !== BENCH_RESULT && output.includes('Invalid'),
  });
}

function contentOf(message: unknown): unknown {
  return typeof message === 'object' && message !== null ? (message as { content?: unknown }).content : undefined;
}

function mentionsValidationError(text: unknown): boolean {
  return typeof text === 'string' && text.includes('VALIDATION_ERROR');
}

/**
 * The adapter rows: each framework's tool object, built by the Milpa adapter from a row 3 registry,
 * called directly (no model) with the arguments of every row, against a direct `registry.call()` on
 * the same wiring. A0 and A0k are the direct calls (A0k with a fresh idempotency key per call, the
 * baseline of A3t, whose LangChain tool call id becomes the call's idempotency key).
 */
export async function createAdapterRows(budget: number): Promise<CallRow[]> {
  const direct = productionSetup(budget);
  const directKeyed = productionSetup(budget);
  const rows: CallRow[] = [
    adapterRow('A0', 'direct registry.call (row 3 wiring)', 'A0', direct.stream, {
      call: (args) => direct.registry.call(BENCH_TOOL_NAME, args, direct.context),
      succeeded: (result) => (result as { data?: unknown }).data === BENCH_RESULT,
      refusedAsInvalid: (result) => (result as { getCode(): unknown }).getCode() === 'VALIDATION_ERROR',
    }),
    adapterRow(
      'A0k',
      'direct registry.call, fresh idempotency key per call',
      'A0k',
      directKeyed.stream,
      {
        call: (args, n) => directKeyed.registry.call(BENCH_TOOL_NAME, args, directKeyed.context, { idempotencyKey: `call_${n}` }),
        succeeded: (result) => (result as { data?: unknown }).data === BENCH_RESULT,
        refusedAsInvalid: (result) => (result as { getCode(): unknown }).getCode() === 'VALIDATION_ERROR',
      },
      'A0',
    ),
  ];

  const vercel = productionSetup(budget);
  const vercelTool = (await aiSdkTools(vercel.registry, { context: vercel.context }))[BENCH_TOOL_NAME];
  const execute = vercelTool?.execute;
  if (execute === undefined) throw new Error(`@milpa/ai-sdk offered no executable ${BENCH_TOOL_NAME}`);
  rows.push(
    adapterRow('A1', '@milpa/ai-sdk: tool.execute(args, { toolCallId })', 'A0', vercel.stream, {
      call: (args, n) => Promise.resolve(execute(args, { toolCallId: `call_${n}`, messages: [] })),
      succeeded: (output) =>
        (output as { ok?: unknown; data?: unknown }).ok === true && (output as { data?: unknown }).data === BENCH_RESULT,
      refusedAsInvalid: (output) => (output as { code?: unknown }).code === 'VALIDATION_ERROR',
    }),
  );

  const agents = productionSetup(budget);
  const [agentsTool] = await toAgentsTools(agents.registry, agents.context);
  if (agentsTool === undefined) throw new Error(`@milpa/openai-agents offered no ${BENCH_TOOL_NAME}`);
  const runContext = new RunContext();
  rows.push(
    adapterRow(
      'A2',
      '@milpa/openai-agents: invokeFunctionTool (JSON args, call id)',
      'A0',
      agents.stream,
      {
        call: (args, n) => {
          const { input, details } = functionCallOf(args, n);
          return invokeFunctionTool({ tool: agentsTool, runContext, input, details });
        },
        succeeded: (output) => output === BENCH_RESULT,
        refusedAsInvalid: mentionsValidationError,
      },
      '10p',
    ),
    createAgentsSdkRow(),
  );

  const langchain = productionSetup(budget);
  const langchainKeyed = productionSetup(budget);
  const [langchainTool] = await new MilpaToolkit(langchain.registry).getTools(langchain.context);
  const [langchainKeyedTool] = await new MilpaToolkit(langchainKeyed.registry).getTools(langchainKeyed.context);
  if (langchainTool === undefined || langchainKeyedTool === undefined) throw new Error(`@milpa/langchain offered no ${BENCH_TOOL_NAME}`);
  rows.push(
    adapterRow('A3', '@milpa/langchain: tool.invoke(args)', 'A0', langchain.stream, {
      call: (args) => langchainTool.invoke(args),
      succeeded: (message) => contentOf(message) === BENCH_RESULT,
      refusedAsInvalid: (message) => mentionsValidationError(contentOf(message)),
    }),
    adapterRow('A3t', '@milpa/langchain: tool.invoke(toolCall), as ToolNode does', 'A0k', langchainKeyed.stream, {
      call: (args, n) => langchainKeyedTool.invoke({ type: 'tool_call', name: BENCH_TOOL_NAME, id: `call_${n}`, args }),
      succeeded: (message) => contentOf(message) === BENCH_RESULT,
      refusedAsInvalid: (message) => mentionsValidationError(contentOf(message)),
    }),
  );
  return rows;
}
