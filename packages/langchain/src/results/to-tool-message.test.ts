import { ToolResult } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { describeRefusal, refusalMessage, toToolMessage } from './to-tool-message.js';

describe('toToolMessage', () => {
  it.each([
    ['data as JSON', ToolResult.success({ id: 7 }), '{"id":7}'],
    ['a string as it is', ToolResult.success('plain text'), 'plain text'],
    ['the message without data', ToolResult.success(null, 'Saved.'), 'Saved.'],
    ['message and data together', ToolResult.success([1, 2], 'Two found.'), '{"message":"Two found.","data":[1,2]}'],
  ])('answers a success with %s', (_label, result, content) => {
    const message = toToolMessage(result, 'find', 'call_1');

    expect(message).toMatchObject({ status: 'success', tool_call_id: 'call_1', name: 'find', content, artifact: result.toJSON() });
  });

  it('answers content blocks as text parts, binary ones described', () => {
    const result = ToolResult.content(
      [
        { type: 'text', text: 'hello' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      'A picture.',
    );

    const message = toToolMessage(result, 'draw', 'call_2');

    expect(message.content).toEqual([
      { type: 'text', text: 'A picture.' },
      { type: 'text', text: 'hello' },
      { type: 'text', text: JSON.stringify({ type: 'image', data: 'AAAA', mimeType: 'image/png' }) },
    ]);
  });

  it('answers a refusal with status error and the code and message as JSON', () => {
    const result = ToolResult.failure('RATE_LIMITED', 'Rate limit exceeded.', null, { retry_after_seconds: 12 });

    const message = toToolMessage(result, 'find', 'call_3');

    expect(message.status).toBe('error');
    expect(JSON.parse(String(message.content))).toEqual({ code: 'RATE_LIMITED', message: 'Rate limit exceeded.', retry_after_seconds: 12 });
    expect(message.artifact).toEqual(result.toJSON());
  });
});

describe('describeRefusal', () => {
  it('lists validation problems by field', () => {
    const result = ToolResult.failure('VALIDATION_ERROR', 'Missing required field: id', null, {
      errors: [{ path: 'id', message: 'Missing required field: id' }, 'junk'],
    });

    expect(describeRefusal(result)).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Missing required field: id',
      errors: [{ path: 'id', message: 'Missing required field: id' }],
    });
  });

  it('names a vetoed call BLOCKED with its suggestion, and an uncoded failure TOOL_ERROR', () => {
    expect(describeRefusal(ToolResult.blocked('Not on Fridays.', 'Try Monday.'))).toEqual({
      code: 'BLOCKED',
      message: 'Not on Fridays.',
      suggestion: 'Try Monday.',
    });
    expect(describeRefusal(ToolResult.error('Upstream said no.'))).toEqual({ code: 'TOOL_ERROR', message: 'Upstream said no.' });
  });

  it('carries approval_id and expires_at for a held call only', () => {
    const meta = { approval_id: 'a1', expires_at: '2030-01-01T00:00:00+00:00' };

    expect(describeRefusal(ToolResult.failure('APPROVAL_PENDING', 'Held.', null, meta))).toEqual({
      code: 'APPROVAL_PENDING',
      message: 'Held.',
      ...meta,
    });
    expect(describeRefusal(ToolResult.failure('APPROVAL_DENIED', 'No.', null, meta))).toEqual({ code: 'APPROVAL_DENIED', message: 'No.' });
  });
});

describe('refusalMessage', () => {
  it("answers the toolkit's own refusal with its code and extra fields", () => {
    const message = refusalMessage('APPROVAL_INVALID', 'Not this call.', 'delete_note', 'call_4', { approval_refusal: 'call_mismatch' });

    expect(message).toMatchObject({ status: 'error', tool_call_id: 'call_4', name: 'delete_note' });
    expect(JSON.parse(String(message.content))).toEqual({
      code: 'APPROVAL_INVALID',
      message: 'Not this call.',
      approval_refusal: 'call_mismatch',
    });
  });
});
