import { aiSdkTools } from '@milpa/ai-sdk';
import { ToolContext } from '@milpa/core';
import { generateText, stepCountIs, type ModelMessage } from 'ai';
import { createTerminalStyle, type TerminalStyle } from '../output/terminal-style.js';
import { REVIEWER_SCOPE, SUPERVISED_AGENT, createDemoRuntime } from '../runtime/create-demo-runtime.js';
import { describeCaller } from '../tour/tour-writer.js';
import { scriptedAgentModel, type AgentMove, type ReadResult } from './scripted-agent-model.js';

/** Options of {@link runAgentConversation}. */
export interface AgentConversationOptions {
  /** Where the transcript goes. */
  readonly write: (text: string) => void;
  /** Colour the transcript with ANSI codes; default false. */
  readonly color?: boolean;
}

/** What happened in the conversation, for callers that check it. */
export interface AgentConversationReport {
  /** The code the model read when it asked for a note outside its folder. */
  readonly refusalCode: string | null;
  /** How many approval requests the AI SDK issued. */
  readonly approvalRequests: number;
  /** Whether note 3 was deleted (once, after the person approved). */
  readonly deleted: boolean;
  /** The model's closing answer. */
  readonly answer: string;
  /** The audit outcomes of the agent's calls, by tool call id, in order. */
  readonly audit: Readonly<Record<string, readonly string[]>>;
}

/** The person who approves the agent's held calls in the conversation. */
const APPROVER = 'user:ana';
const USER_MESSAGE = 'Tidy up my notes: drop the one about squash, and tell me what the seed note says.';
const LIST = 'call-1';
const READ_SEED = 'call-2';
const DELETE_SQUASH = 'call-3';
const MAX_RESULT_TEXT = 110;

function shorten(text: string): string {
  return text.length <= MAX_RESULT_TEXT ? text : `${text.slice(0, MAX_RESULT_TEXT - 1)}…`;
}

/** The agent's plan: list, read the seed note, delete the squash note, then report what it read. */
function decide(read: ReadonlyMap<string, ReadResult>): AgentMove {
  if (!read.has(LIST)) return { kind: 'call', id: LIST, tool: 'list_notes', input: {} };
  if (!read.has(READ_SEED)) return { kind: 'call', id: READ_SEED, tool: 'get_note', input: { id: 4 } };
  if (!read.has(DELETE_SQUASH)) return { kind: 'call', id: DELETE_SQUASH, tool: 'delete_note', input: { id: 3 } };
  const seed = read.get(READ_SEED)?.value;
  const deletion = read.get(DELETE_SQUASH)?.value;
  const seedText =
    seed?.['ok'] === true
      ? 'Here is the seed note.'
      : `I could not open the seed note (${String(seed?.['code'])}): it is kept in another folder, so I left it alone.`;
  const deletionText =
    deletion === null || deletion === undefined
      ? 'You declined deleting the squash note, so it stays.'
      : deletion['ok'] === true
        ? 'The squash note (3) is deleted, after user:ana approved it.'
        : `The squash note was not deleted (${String(deletion['code'])}).`;
  return { kind: 'say', text: `${deletionText} ${seedText}` };
}

function describeValue(value: unknown): string {
  return shorten(JSON.stringify(value) ?? 'null');
}

/** Prints the parts of the messages a `generateText` run added, the way a person reads a chat. */
function printMessages(messages: readonly ModelMessage[], style: TerminalStyle, write: (text: string) => void): void {
  for (const message of messages) {
    if (typeof message.content === 'string') continue;
    for (const part of message.content) {
      if (part.type === 'text' && message.role === 'assistant') write(`  ${style.bold('model')}   › ${part.text}\n`);
      if (part.type === 'tool-call')
        write(
          `  ${style.bold('model')}   → ${style.accent(part.toolName)} ${JSON.stringify(part.input)} ` +
            `${style.dim(`[${part.toolCallId}]`)}\n`,
        );
      if (part.type === 'tool-approval-request') {
        write(
          `  ${style.bold('ai sdk')}  ⏸ ${style.accent('tool-approval-request')} for ${part.toolCallId}: ` +
            'the runtime holds this call for a person, so the AI SDK asks first; nothing has run\n',
        );
      }
      if (part.type === 'tool-result') {
        const output = part.output as { type: string; value?: Record<string, unknown>; reason?: string };
        const value = output.value;
        if (output.type === 'execution-denied')
          write(
            `  ${style.bold('ai sdk')}  ${style.bad('✗ denied')} by the person${output.reason === undefined ? '' : `: ${output.reason}`}\n`,
          );
        else if (value?.['ok'] === true) write(`  ${style.bold('milpa')}   ${style.good('✓ ok')} ${describeValue(value['data'])}\n`);
        else write(`  ${style.bold('milpa')}   ${style.bad(`✗ ${String(value?.['code'])}`)} ${shorten(String(value?.['message']))}\n`);
      }
    }
  }
}

function auditByCall(entries: readonly { readonly context: Readonly<Record<string, unknown>> }[]): Record<string, string[]> {
  const byCall: Record<string, string[]> = {};
  for (const entry of entries) {
    const audit = entry.context['audit'] as { request_id?: unknown; outcome?: unknown } | undefined;
    if (audit === undefined || typeof audit.request_id !== 'string' || !audit.request_id.startsWith('call-')) continue;
    (byCall[audit.request_id] ??= []).push(String(audit.outcome));
  }
  return byCall;
}

/**
 * `pnpm demo agent`: a scripted agent conversation on the Vercel AI SDK (`generateText` with a
 * mock model, no network) whose tools come from `aiSdkTools` over the demo runtime. The model
 * lists the notes, is refused a note outside its folder and reads the refusal, asks to delete a
 * note — which the runtime holds for a person, so the AI SDK issues an approval request — and,
 * once the person approves, the deletion runs once; the audit shows each call under its AI SDK
 * tool call id.
 *
 * @example
 * await runAgentConversation({ write: (text) => process.stdout.write(text), color: true });
 */
export async function runAgentConversation(options: AgentConversationOptions): Promise<AgentConversationReport> {
  const { write } = options;
  const style = createTerminalStyle(options.color ?? false);
  const demo = await createDemoRuntime({ supervisedPrincipals: [SUPERVISED_AGENT] });
  try {
    const runId = await demo.registry.startRun();
    const agent = ToolContext.web(SUPERVISED_AGENT, ['notes:read', 'notes:write']).with({ runId });
    const approver = ToolContext.web(APPROVER, [REVIEWER_SCOPE]);
    const tools = await aiSdkTools(demo.registry, { context: agent, approver });
    const model = scriptedAgentModel(decide);

    write(`${style.bold('An agent on the Vercel AI SDK, every tool call governed by Milpa')}\n`);
    write(style.dim('generateText runs its real tool loop; the model is scripted (no network, no API key).\n'));
    write(`  agent:    ${describeCaller(agent)} ${style.dim('(the runtime holds its mutating calls for a person)')}\n`);
    write(`  approver: ${describeCaller(approver)}\n`);
    write(`  offered:  ${Object.keys(tools).sort().join(', ')} ${style.dim('(aiSdkTools: only what the agent may call)')}\n\n`);

    const messages: ModelMessage[] = [{ role: 'user', content: USER_MESSAGE }];
    write(`  ${style.bold('user')}    › ${USER_MESSAGE}\n`);
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });
    printMessages(first.response.messages, style, write);
    messages.push(...first.response.messages);

    const requests = first.content.filter((part) => part.type === 'tool-approval-request');
    if (requests.length > 0) {
      messages.push({
        role: 'tool',
        content: requests.map((request) => {
          write(
            `  ${style.bold('person')}  ${style.good('✓ approve')} ${request.toolCall.toolName} ` +
              `${JSON.stringify(request.toolCall.input)} ${style.dim(`(${APPROVER}, in the chat UI: tool-approval-response)`)}\n`,
          );
          return {
            type: 'tool-approval-response' as const,
            approvalId: request.approvalId,
            approved: true,
            reason: 'The squash note is out of date.',
          };
        }),
      });
      const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });
      printMessages(second.response.messages, style, write);
      messages.push(...second.response.messages);
    }

    const audit = auditByCall(demo.logger.entries());
    write(`\n${style.bold('Audit')} ${style.dim('(each call under its AI SDK tool call id)')}\n`);
    for (const [id, outcomes] of Object.entries(audit)) write(`  ${id}  ${outcomes.join(' → ')}\n`);
    const read = (id: string) =>
      messages
        .flatMap((message) => (message.role === 'tool' ? message.content : []))
        .find((part) => part.type === 'tool-result' && part.toolCallId === id);
    const seed = read(READ_SEED);
    const seedValue = seed?.type === 'tool-result' ? (seed.output as { value?: { code?: unknown } }).value : undefined;
    const last = messages.at(-1);
    const answer =
      last?.role === 'assistant' && Array.isArray(last.content)
        ? last.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
        : '';
    write(`\n${style.dim('Try it yourself: aiSdkTools(registry, { context, approver }) from @milpa/ai-sdk, with your own model.')}\n`);
    return {
      refusalCode: typeof seedValue?.code === 'string' ? seedValue.code : null,
      approvalRequests: requests.length,
      deleted: demo.notes.find(3) === null,
      answer,
      audit,
    };
  } finally {
    demo.close();
  }
}
