import { Usage, type AgentInputItem, type AgentOutputItem, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';

/** One turn of the scripted model: what it answers, given what it was sent. */
export type ScriptedTurn = (request: ModelRequest) => AgentOutputItem[];

/** A function call the model makes. */
export function functionCall(name: string, args: Record<string, unknown>, callId: string): AgentOutputItem {
  return { type: 'function_call', callId, name, arguments: JSON.stringify(args), status: 'completed' } as AgentOutputItem;
}

/** The model's final text answer. */
export function reply(text: string): AgentOutputItem {
  return { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] } as AgentOutputItem;
}

/** The tool output the model was sent for `callId`, as text; undefined when it was sent none. */
export function toolOutputIn(request: ModelRequest, callId: string): string | undefined {
  const items = (typeof request.input === 'string' ? [] : request.input) as AgentInputItem[];
  for (const item of items) {
    const candidate = item as { type?: string; callId?: string; output?: unknown };
    if (candidate.type !== 'function_call_result' || candidate.callId !== callId) continue;
    const output = candidate.output;
    if (typeof output === 'string') return output;
    if (typeof output === 'object' && output !== null && typeof (output as { text?: unknown }).text === 'string')
      return (output as { text: string }).text;
    return JSON.stringify(output);
  }
  return undefined;
}

/**
 * A `Model` that answers from a script, one turn per request, and keeps every request it was sent:
 * no network, no API key. A request beyond the script fails the test.
 */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #turns: ScriptedTurn[];

  constructor(turns: ScriptedTurn[]) {
    this.#turns = [...turns];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const turn = this.#turns.shift();
    if (turn === undefined) throw new Error(`the scripted model has no turn ${this.requests.length}`);
    return { usage: new Usage(), output: turn(request) };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error('the scripted model does not stream');
  }

  /** The tool output the model read for `callId` in its latest request. */
  lastOutputFor(callId: string): string | undefined {
    const last = this.requests.at(-1);
    return last === undefined ? undefined : toolOutputIn(last, callId);
  }
}
