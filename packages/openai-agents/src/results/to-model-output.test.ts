import { ToolResult } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { toModelOutput } from './to-model-output.js';

describe('toModelOutput', () => {
  it.each([
    ['object data as JSON', ToolResult.success({ id: 7, tags: ['a'] }), '{"id":7,"tags":["a"]}'],
    ['string data as it is', ToolResult.success('plain text'), 'plain text'],
    ['the message when there is no data', ToolResult.success(null, 'Saved.'), 'Saved.'],
    ['null when there is neither', ToolResult.success(null), 'null'],
  ])('gives a success %s', (_name, result, output) => {
    expect(toModelOutput(result)).toBe(output);
  });

  it('gives a refusal its code, message and the details a model can act on', () => {
    const result = ToolResult.failure('RATE_LIMITED', 'Slow down.', null, { retry_after_seconds: 12 });
    expect(JSON.parse(toModelOutput(result))).toEqual({ error: { code: 'RATE_LIMITED', message: 'Slow down.', retry_after_seconds: 12 } });
  });

  it('keeps only well-formed validation issues', () => {
    const result = ToolResult.failure('VALIDATION_ERROR', 'Invalid arguments', null, {
      errors: [{ path: 'id', message: 'id: too short' }, 'junk', null],
    });
    expect(JSON.parse(toModelOutput(result))).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'Invalid arguments', errors: [{ path: 'id', message: 'id: too short' }] },
    });
  });

  it('names a rule veto BLOCKED and a code it does not know TOOL_ERROR', () => {
    expect(JSON.parse(toModelOutput(ToolResult.blocked('Outside office hours'))).error.code).toBe('BLOCKED');
    expect(JSON.parse(toModelOutput(ToolResult.error('odd', null, { code: 'SOMETHING_ELSE' })))).toEqual({
      error: { code: 'TOOL_ERROR', message: 'odd' },
    });
  });

  it('never shows the model a confirmation token', () => {
    const result = new ToolResult(true, { requires_confirmation: true, confirm_token: 'secret-token' }, 'Publish n1?', null, {
      tool: 'publish_note',
      type: 'confirmation',
      requires_confirmation: true,
    });
    const output = toModelOutput(result);
    expect(output).not.toContain('secret-token');
    expect(JSON.parse(output)).toEqual({
      error: {
        code: 'CONFIRMATION_REQUIRED',
        message:
          "'publish_note' needs the confirmation of the person running the agent, " +
          'and this call was not confirmed in the agent run. Nothing ran.',
      },
    });
  });
});
