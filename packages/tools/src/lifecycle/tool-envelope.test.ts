import { MilpaError, ToolResult } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { failure, success } from './tool-envelope.js';
import { ToolError } from './tool-error.js';

describe('success', () => {
  it('carries data, meta and the warnings under meta.warnings', () => {
    const result = success({ content: 'x' }, { path: 'a.txt', next_offset: 3 }, ['Output truncated.']);

    expect(result).toBeInstanceOf(ToolResult);
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ content: 'x' });
    expect(result.meta).toEqual({ path: 'a.txt', next_offset: 3, warnings: ['Output truncated.'] });
  });

  it('always has a warnings list, empty by default', () => {
    expect(success(1).meta['warnings']).toEqual([]);
  });
});

describe('failure', () => {
  it('carries the code, the message, type error and the details', () => {
    const result = failure('NO_MATCH', 'old_str was not found.', { matches: 0 });

    expect(result.success).toBe(false);
    expect(result.error).toBe('old_str was not found.');
    expect(result.data).toBeNull();
    expect(result.meta).toEqual({ matches: 0, code: 'NO_MATCH', type: 'error', warnings: [] });
  });

  it('lets the code win over a code in details', () => {
    expect(failure('A', 'm', { code: 'B' }).meta['code']).toBe('A');
  });
});

describe('ToolError', () => {
  it('is a MilpaError with its code, frozen details and its cause', () => {
    const cause = new Error('low level');
    const error = new ToolError('UPSTREAM', 'Upstream failed.', { cause, details: { status: 503 } });

    expect(MilpaError.isInstance(error)).toBe(true);
    expect(error.code).toBe('UPSTREAM');
    expect(error.message).toBe('Upstream failed.');
    expect(error.cause).toBe(cause);
    expect(error.details).toEqual({ status: 503 });
    expect(Object.isFrozen(error.details)).toBe(true);
  });

  describe('isRecoverable', () => {
    it('is true only for a ToolError with a cause', () => {
      expect(ToolError.isRecoverable(new ToolError('A', 'a', { cause: new Error('x') }))).toBe(true);
      expect(ToolError.isRecoverable(new ToolError('A', 'a'))).toBe(false);
      expect(ToolError.isRecoverable(new Error('x', { cause: new Error('y') }))).toBe(false);
      expect(ToolError.isRecoverable(new MilpaError('x', { code: 'A', cause: new Error('y') }))).toBe(false);
    });
  });
});
