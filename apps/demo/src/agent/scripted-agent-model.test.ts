import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { scriptedAgentModel, type ReadResult } from './scripted-agent-model.js';

describe('scriptedAgentModel', () => {
  it('decides each move from the tool results it has read, and answers in text at the end', async () => {
    const seen: ReadonlyMap<string, ReadResult>[] = [];
    const model = scriptedAgentModel((read) => {
      seen.push(new Map(read));
      return read.has('c1')
        ? { kind: 'say', text: `read ${JSON.stringify(read.get('c1')?.value)}` }
        : { kind: 'call', id: 'c1', tool: 'echo', input: { word: 'hi' } };
    });
    const echo = tool({ inputSchema: jsonSchema<{ word: string }>({ type: 'object' }), execute: ({ word }) => ({ ok: true, word }) });
    const result = await generateText({ model, tools: { echo }, prompt: 'say hi', stopWhen: stepCountIs(3) });
    expect(result.text).toBe('read {"ok":true,"word":"hi"}');
    expect(seen.map((read) => [...read.keys()])).toEqual([[], ['c1']]);
  });
});
