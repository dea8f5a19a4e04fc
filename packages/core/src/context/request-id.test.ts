import { describe, expect, it } from 'vitest';
import { generateRequestId } from './request-id.js';

describe('generateRequestId', () => {
  it('returns 32 lowercase hex characters', () => {
    for (let i = 0; i < 200; i++) expect(generateRequestId()).toMatch(/^[0-9a-f]{32}$/);
  });

  it('returns a different id on every call', () => {
    const ids = new Set(Array.from({ length: 1000 }, () => generateRequestId()));

    expect(ids.size).toBe(1000);
  });

  it('uses every hex digit across many ids so no byte is lost or padded wrongly', () => {
    const digits = new Set(Array.from({ length: 50 }, () => generateRequestId()).join(''));

    expect([...digits].sort().join('')).toBe('0123456789abcdef');
  });
});
