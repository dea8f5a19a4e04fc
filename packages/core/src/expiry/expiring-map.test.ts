import { afterEach, describe, expect, it, vi } from 'vitest';
import { MilpaError } from '../errors/milpa-error.js';
import { ExpiringMap, type ExpiringMapOptions } from './expiring-map.js';

/** A map on a hand-moved clock. */
function clocked<V = string>(options: Omit<ExpiringMapOptions<string, V>, 'now'> = {}) {
  const clock = { now: 1_000 };
  const map = new ExpiringMap<string, V>({ ...options, now: () => clock.now });
  return { map, clock };
}

/** A small deterministic pseudo-random sequence, so a failing run can be replayed. */
function sequence(start: number): (below: number) => number {
  let state = start >>> 0;
  return (below) => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    // The high bits: the low bits of this generator repeat with short periods.
    return Math.floor((state / 4_294_967_296) * below);
  };
}

function codeOf(action: () => unknown): string | null {
  try {
    action();
  } catch (error) {
    return MilpaError.isInstance(error) ? error.code : 'NOT_MILPA';
  }
  return null;
}

describe('ExpiringMap', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  describe('constructor', () => {
    it.each([
      ['sweepInterval', { sweepInterval: 0 }],
      ['sweepInterval', { sweepInterval: 1.5 }],
      ['sweepInterval', { sweepInterval: Number.POSITIVE_INFINITY }],
      ['sweepLimit', { sweepLimit: 0 }],
      ['sweepLimit', { sweepLimit: Number.NaN }],
      ['sweepLimit', { sweepLimit: '8' as never }],
    ])('throws INVALID_ARGUMENT naming %s when it is %j', (name, options) => {
      expect(codeOf(() => new ExpiringMap(options))).toBe('INVALID_ARGUMENT');
      expect(() => new ExpiringMap(options)).toThrow(name);
    });

    it('reads Date.now at each operation when no clock is given', () => {
      vi.useFakeTimers();
      vi.setSystemTime(new Date('2026-08-15T14:00:00.000Z'));
      const map = new ExpiringMap<string, number>();
      map.set('k', 1, Date.now() + 1_000);
      vi.advanceTimersByTime(999);
      expect(map.get('k')).toBe(1);
      vi.advanceTimersByTime(1);
      expect(map.get('k')).toBeUndefined();
    });
  });

  describe('get', () => {
    it('returns the value until the millisecond before its expiry and nothing from that millisecond on', () => {
      const { map, clock } = clocked();
      map.set('k', 'v', 1_500);
      clock.now = 1_499;
      expect(map.get('k')).toBe('v');
      clock.now = 1_500;
      expect(map.get('k')).toBeUndefined();
      expect(map.size).toBe(0);
    });

    it('drops the entry at exactly its expiry millisecond when looked up between sweeps', () => {
      const { map, clock } = clocked({ sweepInterval: 1_000_000 });
      map.set('k', 'v', 1_500);
      clock.now = 1_499;
      expect(map.get('k')).toBe('v');
      clock.now = 1_500;
      expect(map.size).toBe(1);
      expect(map.get('k')).toBeUndefined();
      expect(map.size).toBe(0);
    });

    it('keeps an entry whose expiry is null however much time passes', () => {
      const { map, clock } = clocked();
      map.set('k', 'v', null);
      clock.now = Number.MAX_SAFE_INTEGER;
      expect(map.get('k')).toBe('v');
      expect(map.sweep(Number.POSITIVE_INFINITY)).toBe(0);
    });

    it('returns undefined when the key was never set', () => {
      expect(clocked().map.get('missing')).toBeUndefined();
    });
  });

  describe('has', () => {
    it('is true before the expiry and false from it on', () => {
      const { map, clock } = clocked();
      map.set('k', 'v', 2_000);
      expect(map.has('k')).toBe(true);
      clock.now = 2_000;
      expect(map.has('k')).toBe(false);
      expect(map.has('other')).toBe(false);
    });
  });

  describe('set', () => {
    it('replaces the value and the expiry when the key is set again', () => {
      const { map, clock } = clocked();
      map.set('k', 'first', 1_100);
      map.set('k', 'second', 5_000);
      clock.now = 4_999;
      expect(map.get('k')).toBe('second');
      map.set('k', 'third', 4_999);
      expect(map.get('k')).toBeUndefined();
    });

    it('makes an entry permanent when set again with a null expiry, and expiring when set again with one', () => {
      const { map, clock } = clocked();
      map.set('k', 'v', 1_100);
      map.set('k', 'v', null);
      clock.now = 10_000;
      expect(map.get('k')).toBe('v');
      map.set('k', 'v', 10_001);
      clock.now = 10_001;
      expect(map.get('k')).toBeUndefined();
    });

    it.each([Number.NaN, '1000', undefined])('throws INVALID_ARGUMENT and stores nothing when the expiry is %j', (expiresAt) => {
      const { map } = clocked();
      expect(codeOf(() => map.set('k', 'v', expiresAt as never))).toBe('INVALID_ARGUMENT');
      expect(map.size).toBe(0);
    });
  });

  describe('delete', () => {
    it('removes the entry and reports whether it was held, without calling onExpire', () => {
      const onExpire = vi.fn();
      const { map } = clocked({ onExpire });
      map.set('k', 'v', 2_000);
      expect(map.delete('k')).toBe(true);
      expect(map.delete('k')).toBe(false);
      expect(map.get('k')).toBeUndefined();
      expect(onExpire).not.toHaveBeenCalled();
    });
  });

  describe('clear', () => {
    it('removes every entry without calling onExpire', () => {
      const onExpire = vi.fn();
      const { map, clock } = clocked({ onExpire });
      for (let index = 0; index < 10; index++) map.set(`k${index}`, 'v', 1_001 + index);
      map.clear();
      clock.now = 5_000;
      expect(map.size).toBe(0);
      expect(map.sweep()).toBe(0);
      expect(onExpire).not.toHaveBeenCalled();
    });
  });

  describe('onExpire', () => {
    it('is called once with the key and value of an entry found expired on access, after it is gone', () => {
      const seen: [string, string, boolean][] = [];
      const clock = { now: 0 };
      const map: ExpiringMap<string, string> = new ExpiringMap<string, string>({
        now: () => clock.now,
        onExpire: (key, value) => seen.push([key, value, map.has(key)]),
      });
      map.set('k', 'v', 10);
      clock.now = 10;
      map.get('k');
      map.get('k');
      expect(seen).toEqual([['k', 'v', false]]);
    });

    it('may change the map while a sweep is running', () => {
      const { map, clock } = clocked({
        onExpire: (key) => {
          if (key === 'a') map.delete('b');
        },
      });
      map.set('a', 'v', 1_100);
      map.set('b', 'v', 1_200);
      map.set('c', 'v', 9_000);
      clock.now = 2_000;
      expect(map.sweep()).toBe(1);
      expect([...map.entries()]).toEqual([['c', 'v']]);
    });
  });

  describe('sweep', () => {
    it('removes an entry at exactly its expiry millisecond and not one millisecond before', () => {
      const { map, clock } = clocked({ sweepInterval: 1_000_000 });
      map.set('k', 'v', 1_500);
      clock.now = 1_499;
      expect(map.sweep()).toBe(0);
      clock.now = 1_500;
      expect(map.sweep()).toBe(1);
    });

    it('removes expired entries earliest first, up to the limit, and keeps live ones', () => {
      const expired: string[] = [];
      const { map, clock } = clocked({ sweepInterval: 1_000_000, onExpire: (key) => expired.push(key) });
      map.set('late', 'v', 1_300);
      map.set('early', 'v', 1_100);
      map.set('middle', 'v', 1_200);
      map.set('live', 'v', 9_000);
      clock.now = 1_300;
      expect(map.sweep(2)).toBe(2);
      expect(expired).toEqual(['early', 'middle']);
      expect(map.sweep()).toBe(1);
      expect(map.sweep()).toBe(0);
      expect([...map.entries()]).toEqual([['live', 'v']]);
    });

    it('still finds every expired entry after an entry in the middle of the expiry order was deleted', () => {
      const { map, clock } = clocked({ sweepInterval: 1_000_000 });
      // The order is chosen so that the entry moved into the deleted one's place (2_030) lands
      // below a later parent (2_100) and must climb above it, or a sweep stops at that parent.
      for (const at of [2_000, 2_100, 2_010, 2_110, 2_120, 2_020, 2_030]) map.set(`e${at}`, 'v', at);
      map.delete('e2110');
      map.set('e9000', 'v', 9_000);
      map.set('e9001', 'v', 9_001);
      clock.now = 2_050;
      expect(map.sweep(Number.POSITIVE_INFINITY)).toBe(4);
      expect([...map.entries()].map(([key]) => key)).toEqual(['e2100', 'e2120', 'e9000', 'e9001']);
    });

    it('throws INVALID_ARGUMENT when the limit is not a whole number of at least 1', () => {
      expect(codeOf(() => clocked().map.sweep(0))).toBe('INVALID_ARGUMENT');
    });
  });

  describe('automatic sweeping', () => {
    it('removes at most sweepLimit expired entries per operation when a mass expiry is met', () => {
      const { map, clock } = clocked<number>({ sweepLimit: 100 });
      for (let index = 0; index < 10_000; index++) map.set(`old${index}`, index, 2_000);
      clock.now = 2_000;
      map.set('fresh', 0, 9_000);
      expect(map.size).toBe(10_000 - 100 + 1);
      map.get('anything');
      expect(map.size).toBe(10_000 - 200 + 1);
      for (let operation = 0; operation < 98; operation++) map.has('anything');
      expect(map.size).toBe(1);
    });

    it('sweeps only every sweepInterval operations', () => {
      const { map, clock } = clocked({ sweepInterval: 3 });
      map.set('a', 'v', 1_100);
      map.set('b', 'v', 1_100);
      clock.now = 2_000;
      map.has('x');
      expect(map.size).toBe(0);
      map.set('c', 'v', 2_100);
      clock.now = 3_000;
      map.has('x');
      expect(map.size).toBe(1);
      map.has('y');
      expect(map.size).toBe(0);
    });

    it('sweeps on reads too, so expired entries go even when nothing new is set', () => {
      const { map, clock } = clocked();
      for (let index = 0; index < 50; index++) map.set(`k${index}`, 'v', 1_500);
      clock.now = 1_500;
      map.get('unrelated');
      expect(map.size).toBe(0);
    });

    it('stays bounded by the live entries when every operation sets a new key with its own lifetime', () => {
      const { map, clock } = clocked<number>();
      const next = sequence(7);
      let largest = 0;
      for (let call = 0; call < 100_000; call++) {
        // Lifetimes of 1–2,000 ms at one call per millisecond: at most 2,000 entries are alive.
        map.set(`k${call}`, call, clock.now + 1 + next(2_000));
        clock.now += 1;
        largest = Math.max(largest, map.size);
      }
      expect(largest).toBeLessThanOrEqual(2_001);
    });
  });

  describe('entries', () => {
    it('yields every entry held in insertion order, expired ones not removed yet included', () => {
      const { map, clock } = clocked({ sweepInterval: 1_000 });
      map.set('a', '1', 1_100);
      map.set('b', '2', 9_000);
      clock.now = 2_000;
      expect([...map.entries()]).toEqual([
        ['a', '1'],
        ['b', '2'],
      ]);
    });

    it('lets the caller delete entries while iterating', () => {
      const { map } = clocked();
      for (let index = 0; index < 5; index++) map.set(`k${index}`, String(index), null);
      for (const [key, value] of map.entries()) if (Number(value) % 2 === 0) map.delete(key);
      expect([...map.entries()].map(([key]) => key)).toEqual(['k1', 'k3']);
    });
  });

  describe('against a plain reference model', () => {
    it.each([
      ['sweeping a little on every operation', { sweepLimit: 3 }],
      ['sweeping only when asked', { sweepInterval: 1_000_000 }],
    ])('answers every lookup and full sweep as a map of expiry times would when %s', (_case, options) => {
      const next = sequence(2_026);
      const { map, clock } = clocked<number>(options);
      const model = new Map<string, { value: number; expiresAt: number }>();
      for (let step = 0; step < 20_000; step++) {
        const key = `k${next(512)}`;
        const action = next(10);
        if (action < 4) {
          const expiresAt = next(8) === 0 ? null : clock.now + next(200) - 20;
          map.set(key, step, expiresAt);
          model.set(key, { value: step, expiresAt: expiresAt ?? Number.POSITIVE_INFINITY });
        } else if (action < 5) {
          const held = map.delete(key);
          // A delete of an expired key still held reports true; the model cannot tell, so compare presence only.
          if (!held) expect(model.has(key) && (model.get(key)?.expiresAt as number) > clock.now).toBe(false);
          model.delete(key);
        } else if (action < 6) {
          clock.now += next(40);
        } else if (action < 7 && next(4) === 0) {
          // A full sweep leaves exactly the live entries: none missed (heap order) and none too many.
          map.sweep(Number.POSITIVE_INFINITY);
          for (const [modelKey, entry] of model) if (entry.expiresAt <= clock.now) model.delete(modelKey);
          expect(map.size).toBe(model.size);
        } else {
          const entry = model.get(key);
          const expected = entry !== undefined && entry.expiresAt > clock.now ? entry.value : undefined;
          expect(map.get(key)).toBe(expected);
        }
      }
    });
  });
});
