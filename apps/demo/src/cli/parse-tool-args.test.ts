import { MilpaError } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { DemoUsageError } from './demo-usage-error.js';
import { parseToolArgs } from './parse-tool-args.js';

function failureOf(text: string): DemoUsageError {
  try {
    parseToolArgs(text);
  } catch (error) {
    if (error instanceof DemoUsageError) return error;
    throw error;
  }
  throw new Error(`parseToolArgs(${text}) did not throw`);
}

describe('parseToolArgs', () => {
  it('returns the object when the text is a JSON object', () => {
    expect(parseToolArgs('{"id":3,"tags":["a"]}')).toEqual({ id: 3, tags: ['a'] });
  });

  it('throws INVALID_ARGS with a one-line message and an example when the text is not JSON', () => {
    const error = failureOf('{id:3}');
    expect(MilpaError.isInstance(error)).toBe(true);
    expect(error.code).toBe('INVALID_ARGS');
    expect(error.message).toMatch(/^invalid JSON in --args: /);
    expect(error.message).not.toContain('\n');
    expect(error.hint).toContain(`--args '{"page":2}'`);
  });

  it.each([
    ['[1,2]', 'an array'],
    ['null', 'null'],
    ['"text"', 'a string'],
    ['5', 'a number'],
  ])('throws INVALID_ARGS when the JSON is %s rather than an object', (text, kind) => {
    const error = failureOf(text);
    expect(error.code).toBe('INVALID_ARGS');
    expect(error.message).toBe(`--args must be a JSON object, got ${kind}`);
  });
});
