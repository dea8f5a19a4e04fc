import { describe, expect, it } from 'vitest';
import { rejectUnknownArguments, validatePaging } from './argument-checks.js';

describe('rejectUnknownArguments', () => {
  it('returns null when every key is allowed', () => {
    expect(rejectUnknownArguments({ path: 'a', limit: 1 }, ['path', 'limit', 'offset'])).toBeNull();
  });

  it('returns UNKNOWN_ARGUMENT naming the unknown keys and the allowed ones when one is unknown', () => {
    const result = rejectUnknownArguments({ pth: 'a', path: 'b', extra: 1 }, ['path', 'offset']);

    expect(result?.success).toBe(false);
    expect(result?.meta['code']).toBe('UNKNOWN_ARGUMENT');
    expect(result?.error).toBe("Unknown arguments 'pth', 'extra'. Allowed: path, offset.");
    expect(result?.meta['unknown']).toEqual(['pth', 'extra']);
  });

  it('says (none) when the tool takes no arguments', () => {
    expect(rejectUnknownArguments({ a: 1 }, [])?.error).toBe("Unknown argument 'a'. Allowed: (none).");
  });
});

describe('validatePaging', () => {
  const bounds = { maxLimit: 100, maxOffset: 1000, minOffset: 1 };

  it('returns null for absent or in-range paging', () => {
    expect(validatePaging({}, bounds)).toBeNull();
    expect(validatePaging({ limit: 1, offset: 1 }, bounds)).toBeNull();
    expect(validatePaging({ limit: 100, offset: 1000 }, bounds)).toBeNull();
  });

  it.each([0, -1, 1.5, 101, '5', null])('returns INVALID_LIMIT for limit %s', (limit) => {
    const result = validatePaging({ limit }, bounds);
    expect(result?.meta['code']).toBe('INVALID_LIMIT');
    expect(result?.error).toContain('from 1 to 100');
  });

  it.each([0, -3, 2.5, 1001, Number.NaN])('returns INVALID_OFFSET for offset %s with a minimum of 1', (offset) => {
    const result = validatePaging({ offset }, bounds);
    expect(result?.meta['code']).toBe('INVALID_OFFSET');
    expect(result?.error).toContain('from 1 to 1000');
  });

  it('accepts offset 0 when no minimum is given', () => {
    expect(validatePaging({ offset: 0 }, { maxLimit: 10, maxOffset: 10 })).toBeNull();
  });
});
