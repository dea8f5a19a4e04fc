import { describe, expect, it } from 'vitest';
import { ToolDenialReason } from './tool-denial-reason.js';

describe('ToolDenialReason', () => {
  it('is a closed set of authorization and rate-limit reasons', () => {
    expect(ToolDenialReason.values).toEqual([
      'unknown_channel',
      'require_auth',
      'missing_scope',
      'rule_provider',
      'rule_provider_failed',
      'block_mutating',
      'rate_limited',
      'approval_denied',
    ]);
    expect(ToolDenialReason.isToolDenialReason('block_mutating')).toBe(true);
    expect(ToolDenialReason.isToolDenialReason('too_many_deletions')).toBe(false);
    expect(Object.isFrozen(ToolDenialReason)).toBe(true);
  });
});
