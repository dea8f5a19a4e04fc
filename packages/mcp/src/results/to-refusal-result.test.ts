import { ToolResult, normalizeToolDefinition } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { toRefusalResult } from './to-refusal-result.js';

const withOutput = normalizeToolDefinition({ name: 'typed', description: 'Typed', outputSchema: { type: 'object' }, handler: () => ({}) });

describe('toRefusalResult', () => {
  it('names a rule veto BLOCKED and appends its suggestion', () => {
    const result = toRefusalResult(ToolResult.blocked('Outside office hours', 'Try again at 9:00'), null);
    expect(result.content).toEqual([{ type: 'text', text: 'Outside office hours\n\nSuggestion: Try again at 9:00' }]);
    expect(result.structuredContent).toEqual({ code: 'BLOCKED', suggestion: 'Try again at 9:00' });
  });

  it('names a code that is not a ToolErrorCode TOOL_ERROR rather than passing it on', () => {
    const result = toRefusalResult(ToolResult.error('odd', null, { code: 'SOMETHING_ELSE' }), null);
    expect(result.structuredContent).toEqual({ code: 'TOOL_ERROR' });
  });

  it('keeps only well-formed validation issues', () => {
    const result = toRefusalResult(
      ToolResult.failure('VALIDATION_ERROR', 'bad', null, { errors: [{ path: 'a', message: 'a: bad' }, 'junk', null] }),
      null,
    );
    expect(result.structuredContent).toEqual({ code: 'VALIDATION_ERROR', errors: [{ path: 'a', message: 'a: bad' }] });
  });

  it('carries the reason only in _meta for a tool that declares an outputSchema', () => {
    const result = toRefusalResult(ToolResult.failure('FORBIDDEN', 'no'), withOutput);
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'no' }], _meta: { 'lat.milpa/error': { code: 'FORBIDDEN' } } });
  });
});
