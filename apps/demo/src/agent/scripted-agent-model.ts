import { MockLanguageModelV3 } from 'ai/test';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type ModelPrompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];

/** One tool result as the model read it in its prompt. */
export interface ReadResult {
  /** The tool call it answers. */
  readonly toolCallId: string;
  /** The tool's answer (`{ ok, … }`), or null for a call a person denied. */
  readonly value: Readonly<Record<string, unknown>> | null;
}

/** What the scripted model does next: call tools, or answer in text. */
export type AgentMove =
  | { readonly kind: 'call'; readonly id: string; readonly tool: string; readonly input: Readonly<Record<string, unknown>> }
  | { readonly kind: 'say'; readonly text: string };

const USAGE = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** The tool results in the prompt, by tool call id. */
function readResults(prompt: ModelPrompt): Map<string, ReadResult> {
  const read = new Map<string, ReadResult>();
  for (const message of prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const output = part.output as { type: string; value?: unknown };
      const value =
        output.type === 'json' && typeof output.value === 'object' && output.value !== null
          ? (output.value as Record<string, unknown>)
          : null;
      read.set(part.toolCallId, { toolCallId: part.toolCallId, value });
    }
  }
  return read;
}

function toResult(move: AgentMove): GenerateResult {
  if (move.kind === 'say')
    return { content: [{ type: 'text', text: move.text }], finishReason: { unified: 'stop', raw: 'stop' }, usage: USAGE, warnings: [] };
  return {
    content: [{ type: 'tool-call', toolCallId: move.id, toolName: move.tool, input: JSON.stringify(move.input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage: USAGE,
    warnings: [],
  };
}

/**
 * A language model that needs no network: each time it is asked, `decide` picks its next move from
 * the tool results it has read so far (keyed by tool call id), the way a real model reads them.
 * It is the AI SDK's own `MockLanguageModelV3`, so `generateText` runs its real tool loop.
 *
 * @example
 * const model = scriptedAgentModel((read) =>
 *   read.has('call-1') ? { kind: 'say', text: 'Done.' } : { kind: 'call', id: 'call-1', tool: 'list_notes', input: {} },
 * );
 */
export function scriptedAgentModel(decide: (read: ReadonlyMap<string, ReadResult>) => AgentMove): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'milpa-demo',
    modelId: 'scripted-agent',
    doGenerate: async ({ prompt }) => toResult(decide(readResults(prompt))),
  });
}
