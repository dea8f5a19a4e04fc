import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rateLimitKey } from './rate-limit-key.js';

describe('rateLimitKey', () => {
  it('builds the plain key channel:principal:tool for ordinary values', () => {
    expect(rateLimitKey('telegram', 'user-789', 'test_tool')).toBe('telegram:user-789:test_tool');
    expect(rateLimitKey('cli', 'cli', 'add')).toBe('cli:cli:add');
  });

  it('uses an empty segment for a null principal', () => {
    expect(rateLimitKey('web', null, 'tool')).toBe('web::tool');
  });

  it('keeps the principal verbatim, so user:42-style principals keep the plain key', () => {
    expect(rateLimitKey('mcp', 'user:42', 'search')).toBe('mcp:user:42:search');
    expect(rateLimitKey('mcp', '100%', 'search')).toBe('mcp:100%:search');
  });

  it('percent-encodes : and % inside the channel and the tool name', () => {
    expect(rateLimitKey('web:x', 'y', 'search')).toBe('web%3Ax:y:search');
    expect(rateLimitKey('web', 'y', 'a:b')).toBe('web:y:a%3Ab');
    expect(rateLimitKey('100%', 'y', 'a%3Ab')).toBe('100%25:y:a%253Ab');
  });

  it('keeps a principal containing : from colliding with another principal and tool', () => {
    // Unescaped, both would be 'web:alice:admin:tool'.
    expect(rateLimitKey('web', 'alice:admin', 'tool')).not.toBe(rateLimitKey('web', 'alice', 'admin:tool'));
    expect(rateLimitKey('web', 'x', 'tool')).not.toBe(rateLimitKey('web:x', null, 'tool'));
    // An attacker pre-encoding the escape cannot forge it either.
    expect(rateLimitKey('web', 'alice%3Aadmin', 'tool')).not.toBe(rateLimitKey('web', 'alice:admin', 'tool'));
  });

  it('maps distinct (channel, principal, tool) triples to distinct keys', () => {
    const triple = fc.tuple(
      fc.string({ unit: fc.constantFrom('a', ':', '%', '3', 'A', '2', '5') }),
      fc.option(fc.string({ unit: fc.constantFrom('a', ':', '%', '3', 'A') }), { nil: null }),
      fc.string({ unit: fc.constantFrom('a', ':', '%') }),
    );
    fc.assert(
      fc.property(triple, triple, (first, second) => {
        const same = first[0] === second[0] && first[1] === second[1] && first[2] === second[2];
        const anonymousVsEmpty = first[0] === second[0] && first[2] === second[2] && (first[1] ?? '') === (second[1] ?? '');
        if (same || anonymousVsEmpty) return true;
        return rateLimitKey(...first) !== rateLimitKey(...second);
      }),
      { numRuns: 2000 },
    );
  });
});
