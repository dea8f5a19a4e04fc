import { describe, expectTypeOf, it } from 'vitest';
import type { ToolSummary } from '../tools/tool-summary.js';
import type { LlmResponse, LlmService } from './llm-service.js';

describe('LlmService', () => {
  it('generates a response asynchronously from a prompt, offered tools and prior messages', () => {
    expectTypeOf<LlmService['generateResponse']>().returns.toEqualTypeOf<Promise<LlmResponse>>();
    expectTypeOf<LlmService['generateResponse']>().parameter(1).toEqualTypeOf<readonly ToolSummary[] | undefined>();
    expectTypeOf<{ generateResponse: (prompt: string) => Promise<{ content: string }> }>().toExtend<LlmService>();
  });
});
