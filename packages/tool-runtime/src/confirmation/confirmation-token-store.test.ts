import { MilpaError, type ConfirmationBinding } from '@milpa/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmationTokenStore } from './confirmation-token-store.js';
import { formatExpiresAt } from './format-expires-at.js';

const alice: ConfirmationBinding = { principal: 'user:alice', channel: 'telegram' };
const bob: ConfirmationBinding = { principal: 'user:bob', channel: 'telegram' };

function codeOf(action: () => unknown): string | null {
  try {
    action();
  } catch (error) {
    return MilpaError.isInstance(error) ? error.code : 'NOT_MILPA';
  }
  return null;
}

describe('ConfirmationTokenStore', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date('2026-08-15T14:07:11.500Z'));
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  describe('create', () => {
    it('mints a 32-character lowercase hex token with its summary', () => {
      const token = new ConfirmationTokenStore().create('delete_user', { id: 42 }, 'delete_user(id=42)', alice);
      expect(token.token).toMatch(/^[0-9a-f]{32}$/);
      expect(token.actionSummary).toBe('delete_user(id=42)');
      expect(token.expiresAt).toBeInstanceOf(Date);
      expect(Object.isFrozen(token)).toBe(true);
    });

    it('mints distinct tokens', () => {
      const store = new ConfirmationTokenStore();
      const tokens = new Set(Array.from({ length: 1000 }, () => store.create('t', {}, 't()', alice).token));
      expect(tokens.size).toBe(1000);
    });

    it('expires at the creation second plus the 60 s default TTL', () => {
      const token = new ConfirmationTokenStore().create('t', {}, 't()', alice);
      expect(formatExpiresAt(token.expiresAt)).toBe('2026-08-15T14:08:11+00:00');
    });

    it('snapshots a deep, frozen copy of the args so later changes to the caller object are ignored', () => {
      const store = new ConfirmationTokenStore();
      const args = { id: 42, tags: ['a'], nested: { force: true } };
      const { token } = store.create('t', args, 't(id=42)', alice);
      args.id = 99;
      args.tags.push('b');
      args.nested.force = false;
      const stored = store.consume(token, 't', alice);
      expect(stored).toEqual({ id: 42, tags: ['a'], nested: { force: true } });
      expect(Object.isFrozen(stored)).toBe(true);
      expect(Object.isFrozen((stored as { nested: object }).nested)).toBe(true);
    });

    it('keeps an own __proto__ key in the args as plain data', () => {
      const store = new ConfirmationTokenStore();
      const args = JSON.parse('{"__proto__": {"admin": true}, "id": 1}') as Record<string, unknown>;
      const { token } = store.create('t', args, 't(id=1)', alice);
      const stored = store.consume(token, 't', alice) as Record<string, unknown>;
      expect(Object.keys(stored)).toEqual(['__proto__', 'id']);
      expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
      expect((stored as { admin?: unknown }).admin).toBeUndefined();
    });

    it.each([
      ['an empty tool name', () => new ConfirmationTokenStore().create('', {}, 's', alice)],
      ['args that are not an object', () => new ConfirmationTokenStore().create('t', [] as never, 's', alice)],
      ['args holding a function', () => new ConfirmationTokenStore().create('t', { run: () => 1 }, 's', alice)],
      ['a non-string summary', () => new ConfirmationTokenStore().create('t', {}, 5 as never, alice)],
      ['a binding without a channel', () => new ConfirmationTokenStore().create('t', {}, 's', { principal: 'p' } as never)],
    ])('throws INVALID_ARGUMENT for %s', (_case, action) => {
      expect(codeOf(action)).toBe('INVALID_ARGUMENT');
    });

    it.each([
      ['a string', 'id=1'],
      ['a number', 42],
      ['null', null],
      ['undefined', undefined],
    ])('throws INVALID_ARGUMENT and stores nothing when the args are %s', (_case, args) => {
      const store = new ConfirmationTokenStore();
      expect(codeOf(() => store.create('t', args as never, 's', alice))).toBe('INVALID_ARGUMENT');
      expect(store.size()).toBe(0);
    });

    it.each([
      ['null', null],
      ['a string', 'telegram'],
      ['a numeric channel', { principal: 'p', channel: 7 }],
      ['a numeric principal', { principal: 7, channel: 'telegram' }],
      ['a missing principal', { channel: 'telegram' }],
    ])('throws INVALID_ARGUMENT and stores nothing when the binding is %s', (_case, binding) => {
      const store = new ConfirmationTokenStore();
      expect(codeOf(() => store.create('t', {}, 's', binding as never))).toBe('INVALID_ARGUMENT');
      expect(store.size()).toBe(0);
    });

    it.each<[string, () => unknown, string]>([
      [
        'an empty tool name',
        () => new ConfirmationTokenStore().create('', {}, 's', alice),
        'Confirmation tool name must be a non-empty string.',
      ],
      [
        'a numeric tool name',
        () => new ConfirmationTokenStore().create(5 as never, {}, 's', alice),
        'Confirmation tool name must be a non-empty string.',
      ],
      ['array args', () => new ConfirmationTokenStore().create('t', [] as never, 's', alice), 'Confirmation args must be an object.'],
      [
        'a non-string summary',
        () => new ConfirmationTokenStore().create('t', {}, 5 as never, alice),
        'Confirmation action summary must be a string.',
      ],
      [
        'a function binding carrying a channel and a principal',
        () =>
          new ConfirmationTokenStore().create('t', {}, 's', Object.assign(() => undefined, { channel: 'web', principal: 'p' }) as never),
        'Confirmation binding needs a string channel and a string or null principal.',
      ],
      [
        'args holding a function',
        () => new ConfirmationTokenStore().create('t', { run: () => 1 }, 's', alice),
        'Confirmation args must be plain data (structured-cloneable): no functions or symbols.',
      ],
      [
        'a TTL of 0',
        () => new ConfirmationTokenStore({ ttlSeconds: 0 }),
        'Confirmation TTL must be a whole number of seconds, at least 1; got 0.',
      ],
    ])('says what is wrong when given %s', (_case, action, message) => {
      expect(action).toThrow(message);
    });

    it('snapshots args holding null values', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('t', { note: null, nested: { also: null } }, 's', alice);
      expect(store.consume(token, 't', alice)).toEqual({ note: null, nested: { also: null } });
    });

    it('accepts an anonymous binding (null principal)', () => {
      const store = new ConfirmationTokenStore();
      const anonymous = { principal: null, channel: 'web' };
      const { token } = store.create('t', { n: 1 }, 's', anonymous);
      expect(store.consume(token, 't', anonymous)).toEqual({ n: 1 });
    });

    it('stores nothing when it throws', () => {
      const store = new ConfirmationTokenStore();
      expect(() => store.create('t', { run: () => 1 }, 's', alice)).toThrow(MilpaError);
      expect(store.size()).toBe(0);
    });

    it('purges expired tokens and the new token is valid', () => {
      const store = new ConfirmationTokenStore({ ttlSeconds: 1 });
      store.create('t', {}, 's', alice);
      store.create('t', {}, 's', alice);
      vi.advanceTimersByTime(3_000);
      const fresh = store.create('t', {}, 's', alice);
      expect(store.size()).toBe(1);
      expect(store.isValid(fresh.token, 't', alice)).toBe(true);
    });
  });

  describe('consume', () => {
    it('returns the stored args and forgets the token', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('delete_user', { id: 42 }, 's', alice);
      expect(store.consume(token, 'delete_user', alice)).toEqual({ id: 42 });
      expect(store.size()).toBe(0);
    });

    it('redeems a token only once', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('t', { id: 1 }, 's', alice);
      expect(store.consume(token, 't', alice)).not.toBeNull();
      expect(store.consume(token, 't', alice)).toBeNull();
    });

    it.each([123, null, undefined, { token: 'x' }, ['x'], '', 'not-a-token', 'f'.repeat(32)])('returns null for the token %j', (token) => {
      const store = new ConfirmationTokenStore();
      store.create('t', {}, 's', alice);
      expect(store.consume(token, 't', alice)).toBeNull();
      expect(store.size()).toBe(1);
    });

    it('refuses a token presented for another tool and keeps it for its own tool', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('delete_user', { id: 1 }, 's', alice);
      expect(store.consume(token, 'delete_post', alice)).toBeNull();
      expect(store.consume(token, 'delete_user', alice)).toEqual({ id: 1 });
    });

    it('refuses a token presented by another principal and keeps it for its rightful caller', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('delete_user', { id: 1 }, 's', alice);
      expect(store.consume(token, 'delete_user', bob)).toBeNull();
      expect(store.consume(token, 'delete_user', { principal: null, channel: 'telegram' })).toBeNull();
      expect(store.consume(token, 'delete_user', alice)).toEqual({ id: 1 });
    });

    it('refuses a token presented on another channel by the same principal', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('delete_user', { id: 1 }, 's', alice);
      expect(store.consume(token, 'delete_user', { principal: 'user:alice', channel: 'web' })).toBeNull();
      expect(store.isValid(token, 'delete_user', alice)).toBe(true);
    });

    it('binds an anonymous token to anonymity, not to any principal', () => {
      const store = new ConfirmationTokenStore();
      const anonymous = { principal: null, channel: 'cli' };
      const { token } = store.create('t', {}, 's', anonymous);
      expect(store.consume(token, 't', { principal: 'null', channel: 'cli' })).toBeNull();
      expect(store.consume(token, 't', { principal: '', channel: 'cli' })).toBeNull();
      expect(store.consume(token, 't', anonymous)).toEqual({});
    });

    it('returns null instead of throwing for a malformed binding', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('t', {}, 's', alice);
      expect(store.consume(token, 't', null as never)).toBeNull();
      expect(store.consume(token, 't', {} as never)).toBeNull();
      expect(store.isValid(token, 't', alice)).toBe(true);
    });

    it('stays valid during its expiry second and expires after it, deleting the token', () => {
      const store = new ConfirmationTokenStore({ ttlSeconds: 1 });
      const early = store.create('t', { n: 1 }, 's', alice);
      const late = store.create('t', { n: 2 }, 's', alice);
      // Created at 14:07:11.500, expiring at 14:07:12: still valid until 14:07:12.999.
      vi.setSystemTime(new Date('2026-08-15T14:07:12.999Z'));
      expect(store.consume(early.token, 't', alice)).toEqual({ n: 1 });
      vi.setSystemTime(new Date('2026-08-15T14:07:13.000Z'));
      expect(store.isValid(late.token, 't', alice)).toBe(false);
      expect(store.consume(late.token, 't', alice)).toBeNull();
      expect(store.size()).toBe(0);
    });

    it('stays redeemable through its last valid second when a sweep runs in that second', () => {
      const store = new ConfirmationTokenStore({ ttlSeconds: 1 });
      const { token } = store.create('t', { n: 1 }, 's', alice);
      vi.setSystemTime(new Date('2026-08-15T14:07:12.999Z'));
      // create() sweeps expired tokens; one still in its expiry second must survive the sweep.
      store.create('t', { n: 2 }, 's', alice);
      expect(store.size()).toBe(2);
      expect(store.consume(token, 't', alice)).toEqual({ n: 1 });
    });

    it('returns null for a malformed binding presented with a known token', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('t', {}, 's', alice);
      expect(store.consume(token, 't', 'telegram' as never)).toBeNull();
      expect(store.consume(token, 't', { principal: 7, channel: 'telegram' } as never)).toBeNull();
      expect(store.consume(token, 't', { principal: 'user:alice', channel: 7 } as never)).toBeNull();
      expect(store.consume(token, 't', alice)).toEqual({});
    });

    it('redeems exactly once when many consumers race for one token', async () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('transfer', { amount: 100 }, 's', alice);
      const outcomes = await Promise.all(
        Array.from({ length: 500 }, async (_unused, index) => {
          // Interleave the consumers at different microtask depths.
          for (let step = 0; step < index % 5; step += 1) await Promise.resolve();
          return store.consume(token, 'transfer', alice);
        }),
      );
      expect(outcomes.filter((outcome) => outcome !== null)).toEqual([{ amount: 100 }]);
    });

    it('sweeps expired tokens lazily so the store stays bounded under a soak', () => {
      const store = new ConfirmationTokenStore({ ttlSeconds: 1 });
      let largest = 0;
      for (let call = 0; call < 200_000; call += 1) {
        store.create('t', { call }, 's', alice);
        store.consume('f'.repeat(32), 't', alice);
        vi.advanceTimersByTime(5);
        largest = Math.max(largest, store.size());
      }
      // 200 tokens are minted per second; a TTL of 1 s keeps at most three seconds' worth alive.
      expect(largest).toBeLessThanOrEqual(1_000);
    });

    it('clears a mass expiry over the following calls instead of in the first one', () => {
      const store = new ConfirmationTokenStore({ ttlSeconds: 1 });
      for (let index = 0; index < 20_000; index += 1) store.create('t', {}, 's', alice);
      vi.advanceTimersByTime(3_000);
      const fresh = store.create('t', {}, 's', alice);
      // The first create after the expiry removes a bounded share (two sweep steps of 256: one for
      // the lookup that checks the new token is free, one for the insert), not all 20,000 at once...
      expect(store.size()).toBe(20_000 - 2 * 256 + 1);
      expect(store.isValid(fresh.token, 't', alice)).toBe(true);
      // ...and ordinary traffic removes the rest within a hundred calls.
      for (let call = 0; call < 80; call += 1) store.consume('0'.repeat(32), 't', alice);
      expect(store.size()).toBe(1);
    });

    it('sweeps expired tokens during consumes even when nothing new is created', () => {
      const store = new ConfirmationTokenStore({ ttlSeconds: 3600 });
      for (let index = 0; index < 300; index += 1) store.create('t', {}, 's', alice);
      store.setTtl(1);
      vi.advanceTimersByTime(3_601_000);
      for (let index = 0; index < 300; index += 1) store.consume('unknown', 't', alice);
      expect(store.size()).toBe(0);
    });
  });

  describe('isValid', () => {
    it('stays true when asked repeatedly and the token can still be consumed once', () => {
      const store = new ConfirmationTokenStore();
      const { token } = store.create('t', { id: 1 }, 's', alice);
      expect([store.isValid(token, 't', alice), store.isValid(token, 't', alice), store.isValid(token, 't', alice)]).toEqual([
        true,
        true,
        true,
      ]);
      expect(store.consume(token, 't', alice)).toEqual({ id: 1 });
      expect(store.isValid(token, 't', alice)).toBe(false);
    });

    it('is false for a wrong tool, another principal, an unknown token, a non-string or an expired token', () => {
      const store = new ConfirmationTokenStore({ ttlSeconds: 1 });
      const { token } = store.create('t', {}, 's', alice);
      expect(store.isValid(token, 'other', alice)).toBe(false);
      expect(store.isValid(token, 't', bob)).toBe(false);
      expect(store.isValid('0'.repeat(32), 't', alice)).toBe(false);
      expect(store.isValid(42, 't', alice)).toBe(false);
      vi.advanceTimersByTime(2_000);
      expect(store.isValid(token, 't', alice)).toBe(false);
    });
  });

  describe('setTtl', () => {
    it('applies to tokens created afterwards only', () => {
      const store = new ConfirmationTokenStore();
      const before = store.create('t', {}, 's', alice);
      store.setTtl(3600);
      expect(store.getTtl()).toBe(3600);
      const after = store.create('t', {}, 's', alice);
      expect(formatExpiresAt(after.expiresAt)).toBe('2026-08-15T15:07:11+00:00');
      vi.advanceTimersByTime(120_000);
      expect(store.isValid(before.token, 't', alice)).toBe(false);
      expect(store.isValid(after.token, 't', alice)).toBe(true);
    });

    it.each([0, -5, 1.5, Number.NaN, '60'])('throws INVALID_ARGUMENT and keeps the TTL for %j', (seconds) => {
      const store = new ConfirmationTokenStore();
      expect(codeOf(() => store.setTtl(seconds as number))).toBe('INVALID_ARGUMENT');
      expect(store.getTtl()).toBe(60);
    });

    it('rejects a bad TTL in the constructor too', () => {
      expect(codeOf(() => new ConfirmationTokenStore({ ttlSeconds: 0 }))).toBe('INVALID_ARGUMENT');
    });
  });
});
