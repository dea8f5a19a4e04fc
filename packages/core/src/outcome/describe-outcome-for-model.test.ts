import { describe, expect, it } from 'vitest';
import { ToolResult } from '../result/tool-result.js';
import { describeRefusalForModel } from './describe-outcome-for-model.js';

describe('describeRefusalForModel', () => {
  it('carries the code, the message and the details a model acts on', () => {
    const result = ToolResult.failure('VALIDATION_ERROR', 'Missing required field: id', null, {
      errors: [{ path: 'id', message: 'Missing required field: id' }, 'junk'],
      retry_after_seconds: 3,
    });
    expect(describeRefusalForModel(result)).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Missing required field: id',
      errors: [{ path: 'id', message: 'Missing required field: id' }],
      retry_after_seconds: 3,
    });
  });

  it('names a vetoed call BLOCKED with its suggestion, and an uncoded failure TOOL_ERROR', () => {
    expect(describeRefusalForModel(ToolResult.blocked('Not on Fridays.', 'Try Monday.'))).toEqual({
      code: 'BLOCKED',
      message: 'Not on Fridays.',
      suggestion: 'Try Monday.',
    });
    expect(describeRefusalForModel(ToolResult.error('Upstream said no.'))).toEqual({ code: 'TOOL_ERROR', message: 'Upstream said no.' });
  });

  it("reads a held call's id and expiry from its outcome, not from its meta", () => {
    const held = ToolResult.failure('APPROVAL_PENDING', 'Held.', null, { approval_id: 'stale', expires_at: 'stale' }).withOutcome({
      kind: 'approval_pending',
      name: 'approval_pending',
      approvalId: 'a1',
      expiresAt: '2030-01-01T00:00:00Z',
    });
    expect(describeRefusalForModel(held)).toEqual({
      code: 'APPROVAL_PENDING',
      message: 'Held.',
      approval_id: 'a1',
      expires_at: '2030-01-01T00:00:00Z',
    });
  });

  it('takes the code from a refusal outcome when the result carries none', () => {
    const refused = new ToolResult(
      false,
      null,
      null,
      'No.',
      {},
      { kind: 'refused', name: 'auth_denied', code: 'FORBIDDEN', reason: 'No.' },
    );
    expect(describeRefusalForModel(refused)).toEqual({ code: 'FORBIDDEN', message: 'No.' });
  });

  it('reads a result without an outcome from its wire fields, and an approval id only for a held call', () => {
    const meta = { approval_id: 'a1', expires_at: '2030-01-01T00:00:00+00:00' };
    expect(describeRefusalForModel(ToolResult.failure('APPROVAL_PENDING', 'Held.', null, meta))).toEqual({
      code: 'APPROVAL_PENDING',
      message: 'Held.',
      ...meta,
    });
    expect(describeRefusalForModel(ToolResult.failure('APPROVAL_DENIED', 'No.', null, meta))).toEqual({
      code: 'APPROVAL_DENIED',
      message: 'No.',
    });
  });

  it('carries the refused approval and the refusing rule', () => {
    const result = ToolResult.failure('APPROVAL_INVALID', 'Used.', null, { approval_refusal: 'used', rule: 'no_fridays', reason: 'day' });
    expect(describeRefusalForModel(result)).toEqual({
      code: 'APPROVAL_INVALID',
      message: 'Used.',
      approval_refusal: 'used',
      rule: 'no_fridays',
      reason: 'day',
    });
  });
});
