import { ToolResult } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { toAiSdkToolOutput } from './ai-sdk-tool-output.js';

describe('toAiSdkToolOutput', () => {
  it('gives a success its data as JSON and its message', () => {
    expect(toAiSdkToolOutput(ToolResult.success({ at: new Date('2026-12-01T00:00:00Z'), gone: undefined }))).toEqual({
      ok: true,
      data: { at: '2026-12-01T00:00:00.000Z' },
    });
    expect(toAiSdkToolOutput(ToolResult.success(null, 'Nothing to do'))).toEqual({ ok: true, data: null, message: 'Nothing to do' });
  });

  it('gives a paginated success its pagination, so the model can ask for the next page', () => {
    expect(toAiSdkToolOutput(ToolResult.paginated([{ id: 1 }], 1, 5, 1, 'Notes'))).toMatchObject({
      ok: true,
      data: [{ id: 1 }],
      pagination: { page: 1, total_pages: 5, total_items: 5, limit: 1 },
    });
  });

  it('gives a refusal its code, message and what the model acts on', () => {
    const limited = ToolResult.failure('RATE_LIMITED', 'Rate limit exceeded', null, { code: 'RATE_LIMITED', retry_after_seconds: 12 });
    expect(toAiSdkToolOutput(limited)).toEqual({
      ok: false,
      code: 'RATE_LIMITED',
      message: 'Rate limit exceeded',
      retry_after_seconds: 12,
    });
    const invalid = ToolResult.failure('VALIDATION_ERROR', 'Missing required field: id', null, {
      errors: [{ path: 'id', message: 'Missing required field: id' }],
    });
    expect(toAiSdkToolOutput(invalid)).toMatchObject({
      code: 'VALIDATION_ERROR',
      errors: [{ path: 'id', message: 'Missing required field: id' }],
    });
    const ruled = ToolResult.failure('FORBIDDEN', 'Refused by rule', null, { rule: 'notes.limit', reason: 'too_many' });
    expect(toAiSdkToolOutput(ruled)).toMatchObject({ code: 'FORBIDDEN', rule: 'notes.limit', reason: 'too_many' });
  });

  it('gives a held call its approval_id and expiry, and a refused resume its reason', () => {
    const held = ToolResult.failure('APPROVAL_PENDING', 'held', null, { approval_id: 'ab12', expires_at: '2026-12-01T10:00:00+00:00' });
    expect(toAiSdkToolOutput(held)).toEqual({
      ok: false,
      code: 'APPROVAL_PENDING',
      message: 'held',
      approval_id: 'ab12',
      expires_at: '2026-12-01T10:00:00+00:00',
    });
    const used = ToolResult.failure('APPROVAL_INVALID', 'used', null, { approval_refusal: 'used' });
    expect(toAiSdkToolOutput(used)).toMatchObject({ code: 'APPROVAL_INVALID', approval_refusal: 'used' });
  });

  it('names a failure without a code TOOL_ERROR', () => {
    expect(toAiSdkToolOutput(ToolResult.error('disk full'))).toEqual({ ok: false, code: 'TOOL_ERROR', message: 'disk full' });
  });
});
