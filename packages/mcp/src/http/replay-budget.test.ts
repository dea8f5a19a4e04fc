import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedEventStore, ReplayBudget } from './bounded-event-store.js';

/** A notification whose JSON is about `size` bytes. */
function message(size: number): JSONRPCMessage {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { data: 'x'.repeat(size) } } as JSONRPCMessage;
}

async function replayed(store: BoundedEventStore, from: string): Promise<string[] | string> {
  const sent: string[] = [];
  try {
    await store.replayEventsAfter(from, { send: async (id) => void sent.push(id) });
  } catch (error) {
    return (error as { code: string }).code;
  }
  return sent;
}

describe('ReplayBudget', () => {
  it('bounds the bytes of every store together, however many sessions there are', async () => {
    const budget = new ReplayBudget(100_000);
    const stores = Array.from({ length: 1000 }, () => new BoundedEventStore({ maxBytes: 1024 * 1024, budget }));
    for (const [index, store] of stores.entries()) {
      for (let event = 0; event < 5; event += 1) await store.storeEvent(`stream-${index}`, message(1000));
    }
    // A thousand sessions of five 1 kB events each would hold 5 MB; the budget holds 100 kB.
    expect(budget.byteSize).toBeLessThanOrEqual(100_000);
    expect(stores.reduce((total, store) => total + store.byteSize, 0)).toBe(budget.byteSize);
  });

  it('evicts the oldest events across stores first, and a resume from an evicted one is refused, never replayed with a gap', async () => {
    const budget = new ReplayBudget(3000);
    const old = new BoundedEventStore({ budget });
    const recent = new BoundedEventStore({ budget });
    const first = await old.storeEvent('old', message(900));
    await old.storeEvent('old', message(900));
    const kept = await recent.storeEvent('recent', message(900));
    await recent.storeEvent('recent', message(900));
    // Four events of ~1 kB against 3 kB: the oldest (the old session's first) went.
    expect(old.size).toBe(1);
    expect(recent.size).toBe(2);
    expect(await replayed(old, first)).toBe('EVENT_NOT_FOUND');
    expect(await replayed(recent, kept)).toHaveLength(1);
  });

  it('takes back the bytes of a store that is disposed of, and of events a store evicts on its own', async () => {
    const budget = new ReplayBudget(1_000_000);
    const small = new BoundedEventStore({ maxEvents: 2, budget });
    for (let event = 0; event < 10; event += 1) await small.storeEvent('s', message(100));
    expect(budget.byteSize).toBe(small.byteSize);
    small.dispose();
    expect(small.size).toBe(0);
    expect(budget.byteSize).toBe(0);
  });

  it('refuses a bound that is not a whole number of at least 1, and a budget of another kind', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new ReplayBudget(bad)).toThrow(/whole number/);
    expect(() => new BoundedEventStore({ budget: {} as ReplayBudget })).toThrow(/ReplayBudget/);
  });
});
