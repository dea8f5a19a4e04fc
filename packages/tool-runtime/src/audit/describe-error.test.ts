import { describe, expect, it } from 'vitest';
import { describeError } from './describe-error.js';

describe('describeError', () => {
  it("returns an Error's message, or its name when the message is empty", () => {
    expect(describeError(new Error('boom'))).toBe('boom');
    expect(describeError(new TypeError(''))).toBe('TypeError');
  });

  it('describes thrown strings, message-bearing objects and other values', () => {
    expect(describeError('plain')).toBe('plain');
    expect(describeError({ message: 'from object' })).toBe('from object');
    expect(describeError(42)).toBe('42');
    expect(describeError(null)).toBe('null');
  });

  it('never throws, even for a value whose toString throws', () => {
    const hostile = {
      toString(): string {
        throw new Error('nope');
      },
    };
    expect(describeError(hostile)).toBe('an unprintable value was thrown');
  });
});
