import { MockLanguageModelV3 } from 'ai/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV3['doStream']>>;
type StreamPart = StreamResult['stream'] extends ReadableStream<infer T> ? T : never;
/** The prompt a model receives: system, user, assistant and tool messages. */
export type ModelPrompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];

/** One tool call a scripted model makes. */
export interface ScriptedToolCall {
  readonly id: string;
  readonly tool: string;
  readonly input: Record<string, unknown>;
}

/** One model turn: tool calls, or a final text. */
export type ScriptedTurn = { readonly calls: readonly ScriptedToolCall[] } | { readonly text: string };

/** What a tool result looked like in the prompt the model read. */
export interface ReadToolResult {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly output: { readonly type: string; readonly value?: unknown; readonly reason?: string };
}

const USAGE = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function generateResult(turn: ScriptedTurn): GenerateResult {
  if ('text' in turn) {
    return { content: [{ type: 'text', text: turn.text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE, warnings: [] };
  }
  return {
    content: turn.calls.map((call) => ({
      type: 'tool-call' as const,
      toolCallId: call.id,
      toolName: call.tool,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

function streamResult(turn: ScriptedTurn): StreamResult {
  const parts: StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  if ('text' in turn) {
    parts.push({ type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: turn.text }, { type: 'text-end', id: 't1' });
    parts.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE });
  } else {
    for (const call of turn.calls)
      parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.tool, input: JSON.stringify(call.input) });
    parts.push({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: USAGE });
  }
  return {
    stream: new ReadableStream<StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/**
 * A mock model that plays `turns` in order, one per model call (generate or stream), and fails
 * the test loudly when asked for more turns than were scripted.
 */
export function scriptedModel(turns: readonly ScriptedTurn[]): MockLanguageModelV3 {
  let next = 0;
  const take = (): ScriptedTurn => {
    const turn = turns[next];
    next += 1;
    if (turn === undefined) throw new Error(`the scripted model was asked for turn ${next}, but only ${turns.length} were scripted`);
    return turn;
  };
  return new MockLanguageModelV3({
    provider: 'mock',
    modelId: 'scripted',
    doGenerate: async () => generateResult(take()),
    doStream: async () => streamResult(take()),
  });
}

/** The tool results in one prompt the model received, in order. */
export function toolResultsIn(prompt: ModelPrompt): ReadToolResult[] {
  const results: ReadToolResult[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type === 'tool-result')
        results.push({ toolCallId: part.toolCallId, toolName: part.toolName, output: part.output as ReadToolResult['output'] });
    }
  }
  return results;
}

/** What the model read about `toolCallId` in the last prompt it received. */
export function readByModel(model: MockLanguageModelV3, toolCallId: string): ReadToolResult['output'] | undefined {
  const calls = [...model.doGenerateCalls, ...model.doStreamCalls];
  const last = calls.at(-1);
  if (last === undefined) return undefined;
  return toolResultsIn(last.prompt).find((result) => result.toolCallId === toolCallId)?.output;
}
