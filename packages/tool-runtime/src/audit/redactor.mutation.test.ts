import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.js';

// Behaviour pinned by mutation testing (`pnpm mutation tool-runtime src/audit/redactor.ts`): each
// test here fails under a change to the redactor that its other tests let through.

const redactor = new Redactor();

/** Arguments whose one field `field` reads `first` the first time and `later` every time after. */
function readsOnceThenChanges(field: string, first: unknown, later: unknown): { args: Record<string, unknown>; reads: () => number } {
  let count = 0;
  const args = Object.defineProperty({}, field, {
    enumerable: true,
    get() {
      count += 1;
      return count === 1 ? first : later;
    },
  }) as Record<string, unknown>;
  return { args, reads: () => count };
}

describe('Redactor', () => {
  describe('isSensitiveKey (case folding)', () => {
    it('matches a key spelled with the Kelvin sign, which lower-cases to k', () => {
      const kelvin = 'to\u212Aen';
      expect(redactor.isSensitiveKey(kelvin)).toBe(true);
      expect(redactor.redact({ [kelvin]: 'kelvin-secret', user: 'ada' })).toEqual({ [kelvin]: REDACTED, user: 'ada' });
      expect(redactor.collectSecrets({ [kelvin]: 'kelvin-secret' })).toEqual(['kelvin-secret']);
    });
  });

  describe('redact (flat arguments read once)', () => {
    it.each([
      ['a string', 'first read'],
      ['a number', 7],
      ['a boolean', false],
      ['null', null],
      ['undefined', undefined],
    ])('copies %s as read the first time when a getter returns something else later', (_kind, first) => {
      const { args, reads } = readsOnceThenChanges('shifty', first, 'second read');
      expect(redactor.redact(args)).toStrictEqual({ shifty: first });
      expect(reads()).toBe(1);
    });
  });

  describe('collectSecrets (flat arguments)', () => {
    it('collects a sensitive value as read the first time when a getter returns something else later', () => {
      const { args, reads } = readsOnceThenChanges('token', 'first-secret', 'second-secret');
      expect(redactor.collectSecrets(args)).toEqual(['first-secret']);
      expect(reads()).toBe(1);
    });

    it('collects the rest of top-level arguments when one of their fields cannot be read', () => {
      const args = Object.defineProperty({ token: 'kept-top' }, 'broken', {
        enumerable: true,
        get() {
          throw new Error('no');
        },
      });
      expect(redactor.collectSecrets(args)).toEqual(['kept-top']);
      const hostile = new Proxy(
        {},
        {
          ownKeys: () => {
            throw new Error('trap');
          },
        },
      );
      expect(redactor.collectSecrets(hostile)).toEqual([]);
    });
  });

  describe('collectSecrets (what counts as a field)', () => {
    it('treats the characters of a string as no fields, even when a field name is a digit', () => {
      const digits = new Redactor(['0']);
      expect(digits.collectSecrets({ note: 'abc', nested: { 0: 'zero' } })).toEqual(['zero']);
    });

    it("reads a Map's entries and not its own properties, as the copy does", () => {
      const map = Object.assign(new Map([['user', 'ada']]), { token: 'own-property' });
      expect(redactor.collectSecrets({ map })).toEqual([]);
      expect(redactor.redact({ map })).toEqual({ map: { user: 'ada' } });
    });
  });

  describe('collectSecrets (schema step limit)', () => {
    it('keeps the schema for the first million steps taken under it, counting no step taken without one', () => {
      const pinSchema = { type: 'object', properties: { pin: { type: 'string', writeOnly: true } } };
      const schema = { type: 'object', properties: { list: { type: 'array', items: pinSchema } } };
      // Under the schema, the arguments are step 1, the list step 2 and its 999,998 items steps 3 to
      // 1,000,000: the last item is still read under the schema. `unschemed` (no schema) adds no step.
      const list: object[] = new Array<object>(999_997).fill({});
      list.push({ pin: 'last-pin' });
      expect(redactor.collectSecrets({ unschemed: {}, list }, schema)).toEqual(['last-pin']);
    });
  });

  describe('redact (arrays without their prototype)', () => {
    it.each([
      ['no prototype', null],
      ["Object's prototype", Object.prototype],
    ])('redacts the whole of an array with %s, which it cannot copy, rather than copy it as a plain object', (_kind, prototype) => {
      const list = Object.setPrototypeOf(['a', 'b'], prototype) as unknown;
      expect(redactor.redact(list)).toBe(REDACTED);
    });
  });
});
