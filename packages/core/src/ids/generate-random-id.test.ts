import { afterEach, describe, expect, it, vi } from 'vitest';
import { MilpaError } from '../errors/milpa-error.js';
import { generateRandomId } from './generate-random-id.js';

const HEX32 = /^[0-9a-f]{32}$/;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** How often each bit position is set across `ids` (hex text, 4 bits per digit). */
function bitCounts(ids: readonly string[], digitsPerId: number): number[] {
  const counts = new Array<number>(digitsPerId * 4).fill(0);
  for (const id of ids) {
    for (let digit = 0; digit < digitsPerId; digit++) {
      const value = Number.parseInt(id[digit] as string, 16);
      for (let bit = 0; bit < 4; bit++) if ((value >> bit) & 1) counts[digit * 4 + bit] = (counts[digit * 4 + bit] as number) + 1;
    }
  }
  return counts;
}

describe('generateRandomId', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe('hex', () => {
    it('returns 32 lowercase hex characters when no format is given', () => {
      for (let index = 0; index < 600; index++) expect(generateRandomId()).toMatch(HEX32);
    });

    it('returns distinct ids across more calls than one refill of random bytes serves', () => {
      const ids = new Set(Array.from({ length: 5_000 }, () => generateRandomId('hex')));
      expect(ids.size).toBe(5_000);
    });

    it('sets every one of the 128 bits about half the time when many ids are drawn', () => {
      const samples = 4_000;
      const counts = bitCounts(
        Array.from({ length: samples }, () => generateRandomId()),
        32,
      );
      // A fair bit lands within 2,000 ± 200 with overwhelming probability (about 6.3 standard
      // deviations); a constant, truncated or reused byte lands at 0, 4,000 or far outside.
      for (const count of counts) {
        expect(count).toBeGreaterThan(1_800);
        expect(count).toBeLessThan(2_200);
      }
    });

    it('draws from the cryptographic random source, not Math.random', () => {
      const random = vi.spyOn(Math, 'random');
      const fill = vi.spyOn(globalThis.crypto, 'getRandomValues');
      for (let index = 0; index < 600; index++) generateRandomId();
      expect(random).not.toHaveBeenCalled();
      expect(fill).toHaveBeenCalled();
    });

    it('asks the random source for bytes at most once per 256 ids', () => {
      const fill = vi.spyOn(globalThis.crypto, 'getRandomValues');
      for (let index = 0; index < 2_560; index++) generateRandomId();
      expect(fill.mock.calls.length).toBeLessThanOrEqual(11);
    });
  });

  describe('uuid', () => {
    it('returns an RFC version 4 UUID', () => {
      for (let index = 0; index < 600; index++) expect(generateRandomId('uuid')).toMatch(UUID_V4);
    });

    it('keeps the 122 bits outside the version and variant random when many ids are drawn', () => {
      const samples = 4_000;
      const counts = bitCounts(
        Array.from({ length: samples }, () => generateRandomId('uuid').replaceAll('-', '')),
        32,
      );
      const fixed = new Set([
        // Digit 12 is the version (4 = 0100); the top two bits of digit 16 are the variant (10).
        12 * 4,
        12 * 4 + 1,
        12 * 4 + 2,
        12 * 4 + 3,
        16 * 4 + 2,
        16 * 4 + 3,
      ]);
      counts.forEach((count, bit) => {
        if (fixed.has(bit)) return;
        expect(count).toBeGreaterThan(1_800);
        expect(count).toBeLessThan(2_200);
      });
    });

    it('never repeats a hex id when uuid and hex ids are drawn in turn', () => {
      const ids = new Set<string>();
      for (let index = 0; index < 2_000; index++) {
        ids.add(generateRandomId('hex'));
        ids.add(generateRandomId('uuid').replaceAll('-', ''));
      }
      expect(ids.size).toBe(4_000);
    });
  });

  it('throws INVALID_ARGUMENT when the format is unknown', () => {
    let caught: unknown;
    try {
      generateRandomId('base64' as never);
    } catch (error) {
      caught = error;
    }
    expect(MilpaError.isInstance(caught) && caught.code).toBe('INVALID_ARGUMENT');
  });
});
