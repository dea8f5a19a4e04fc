import { MilpaError } from '@milpa/core';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedEventStore } from './bounded-event-store.js';

const PRIMING = {} as JSONRPCMessage;

function note(text: string): JSONRPCMessage {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: text } };
}

function result(id: number, text: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } };
}

function bytesOf(message: JSONRPCMessage): number {
  return new TextEncoder().encode(JSON.stringify(message)).byteLength;
}

async function replay(store: BoundedEventStore, lastEventId: string): Promise<{ streamId: string; events: [string, JSONRPCMessage][] }> {
  const events: [string, JSONRPCMessage][] = [];
  const streamId = await store.replayEventsAfter(lastEventId, { send: async (eventId, message) => void events.push([eventId, message]) });
  return { streamId, events };
}

function invalidArgument(run: () => unknown): MilpaError {
  try {
    run();
  } catch (error) {
    if (MilpaError.isInstance(error) && error.code === 'INVALID_ARGUMENT') return error;
    throw error;
  }
  throw new Error('expected INVALID_ARGUMENT');
}

describe('BoundedEventStore', () => {
  describe('constructor', () => {
    it('keeps 1,000 events by default', async () => {
      const store = new BoundedEventStore();
      for (let index = 0; index < 1001; index += 1) await store.storeEvent('s', PRIMING);
      expect(store.size).toBe(1000);
    });

    it('keeps 1 MiB by default', async () => {
      const store = new BoundedEventStore({ maxEvents: 10 });
      const large = note('x'.repeat(400 * 1024));
      for (let index = 0; index < 3; index += 1) await store.storeEvent('s', large);
      expect(store.size).toBe(2);
      expect(store.byteSize).toBe(2 * bytesOf(large));
    });

    it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '10', null])('throws INVALID_ARGUMENT when maxEvents is %s', (maxEvents) => {
      expect(invalidArgument(() => new BoundedEventStore({ maxEvents: maxEvents as number })).message).toContain('maxEvents');
    });

    it.each([0, -5, 0.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])('throws INVALID_ARGUMENT when maxBytes is %s', (maxBytes) => {
      expect(invalidArgument(() => new BoundedEventStore({ maxBytes })).message).toContain('maxBytes');
    });

    it('throws INVALID_ARGUMENT when the options are not an object', () => {
      expect(invalidArgument(() => new BoundedEventStore(null as never)).message).toContain('options');
    });
  });

  describe('storeEvent', () => {
    it('stores the priming event, an empty message', async () => {
      const store = new BoundedEventStore();
      const primingId = await store.storeEvent('stream-a', PRIMING);
      expect(store.size).toBe(1);
      expect(store.byteSize).toBe(2);
      await expect(store.getStreamIdForEventId(primingId)).resolves.toBe('stream-a');
    });

    it('issues unique, increasing ids that name their stream', async () => {
      const store = new BoundedEventStore();
      const ids = [await store.storeEvent('a', PRIMING), await store.storeEvent('b', PRIMING), await store.storeEvent('a', note('1'))];
      expect(ids).toEqual(['a_1', 'b_2', 'a_3']);
    });

    it('keeps a copy, so changing the message afterwards does not change the replay', async () => {
      const store = new BoundedEventStore();
      const primingId = await store.storeEvent('a', PRIMING);
      const message = note('before') as unknown as { params: { data: string } };
      await store.storeEvent('a', message as unknown as JSONRPCMessage);
      message.params.data = 'after';
      expect((await replay(store, primingId)).events[0]?.[1]).toEqual(note('before'));
    });

    it('counts bytes as UTF-8', async () => {
      const store = new BoundedEventStore();
      await store.storeEvent('a', note('é€😀'));
      expect(store.byteSize).toBe(bytesOf(note('é€😀')));
      expect(store.byteSize).toBe(JSON.stringify(note('')).length + 2 + 3 + 4);
    });

    it.each(['', 42, undefined])('throws INVALID_ARGUMENT for the stream id %j', async (streamId) => {
      await expect(new BoundedEventStore().storeEvent(streamId as string, PRIMING)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('throws INVALID_ARGUMENT for a message that cannot be JSON', async () => {
      const cyclic: Record<string, unknown> = {};
      cyclic['self'] = cyclic;
      const store = new BoundedEventStore();
      await expect(store.storeEvent('a', cyclic as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      await expect(store.storeEvent('a', undefined as never)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
      expect(store.size).toBe(0);
    });
  });

  describe('bounds', () => {
    it('evicts the oldest events first when over maxEvents', async () => {
      const store = new BoundedEventStore({ maxEvents: 3 });
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) ids.push(await store.storeEvent(index % 2 === 0 ? 'a' : 'b', note(String(index))));
      expect(store.size).toBe(3);
      expect(await Promise.all(ids.map((id) => store.getStreamIdForEventId(id)))).toEqual([undefined, undefined, 'a', 'b', 'a']);
    });

    it('evicts the oldest events first when over maxBytes', async () => {
      const one = bytesOf(note('0'));
      const store = new BoundedEventStore({ maxBytes: 2 * one + 1 });
      const ids = [await store.storeEvent('a', note('0')), await store.storeEvent('a', note('1')), await store.storeEvent('a', note('2'))];
      expect(store.size).toBe(2);
      expect(store.byteSize).toBe(2 * one);
      await expect(store.getStreamIdForEventId(ids[0] as string)).resolves.toBeUndefined();
      expect((await replay(store, ids[1] as string)).events).toEqual([[ids[2], note('2')]]);
    });

    it('evicts as many old events as a large new one needs', async () => {
      const store = new BoundedEventStore({ maxBytes: 1000 });
      for (let index = 0; index < 5; index += 1) await store.storeEvent('a', note(String(index)));
      const big = note('x'.repeat(900));
      const bigId = await store.storeEvent('b', big);
      expect(store.size).toBe(1);
      expect(store.byteSize).toBe(bytesOf(big));
      await expect(store.getStreamIdForEventId(bigId)).resolves.toBe('b');
    });

    it('never holds more than the bounds, whatever the mix of streams and sizes', async () => {
      const store = new BoundedEventStore({ maxEvents: 7, maxBytes: 400 });
      for (let index = 0; index < 200; index += 1) {
        await store.storeEvent(`stream-${index % 5}`, note('y'.repeat((index * 37) % 150)));
        expect(store.size).toBeLessThanOrEqual(7);
        expect(store.byteSize).toBeLessThanOrEqual(400);
      }
    });

    it('does not keep an event larger than maxBytes, and forgets its stream’s earlier events so no resume skips it', async () => {
      const store = new BoundedEventStore({ maxBytes: 200 });
      const primingId = await store.storeEvent('a', PRIMING);
      const otherId = await store.storeEvent('b', PRIMING);
      const hugeId = await store.storeEvent('a', note('z'.repeat(300)));
      const afterId = await store.storeEvent('a', note('after'));
      const laterId = await store.storeEvent('a', note('later'));
      expect(hugeId).toBe('a_3');
      await expect(store.getStreamIdForEventId(primingId)).resolves.toBeUndefined();
      await expect(store.getStreamIdForEventId(hugeId)).resolves.toBeUndefined();
      await expect(store.getStreamIdForEventId(otherId)).resolves.toBe('b');
      expect((await replay(store, afterId)).events).toEqual([[laterId, note('later')]]);
      expect(store.size).toBe(3);
    });

    it('gives the bytes of evicted events back', async () => {
      const store = new BoundedEventStore({ maxEvents: 1 });
      await store.storeEvent('a', note('a long message indeed'));
      await store.storeEvent('a', PRIMING);
      expect(store.byteSize).toBe(2);
    });
  });

  describe('replayEventsAfter', () => {
    it('sends the stream’s later events in order and returns the stream id', async () => {
      const store = new BoundedEventStore();
      const primingId = await store.storeEvent('call-1', PRIMING);
      const progressId = await store.storeEvent('call-1', note('half way'));
      const resultId = await store.storeEvent('call-1', result(1, 'done'));
      const { streamId, events } = await replay(store, primingId);
      expect(streamId).toBe('call-1');
      expect(events).toEqual([
        [progressId, note('half way')],
        [resultId, result(1, 'done')],
      ]);
    });

    it('sends only what came after the given event', async () => {
      const store = new BoundedEventStore();
      await store.storeEvent('call-1', PRIMING);
      const seenId = await store.storeEvent('call-1', note('seen'));
      const resultId = await store.storeEvent('call-1', result(1, 'done'));
      expect((await replay(store, seenId)).events).toEqual([[resultId, result(1, 'done')]]);
    });

    it('sends nothing when the given event is the stream’s latest', async () => {
      const store = new BoundedEventStore();
      const primingId = await store.storeEvent('call-1', PRIMING);
      await store.storeEvent('call-2', result(2, 'other'));
      expect(await replay(store, primingId)).toEqual({ streamId: 'call-1', events: [] });
    });

    it('never sends another stream’s events, even interleaved ones', async () => {
      const store = new BoundedEventStore();
      const primingA = await store.storeEvent('a', PRIMING);
      await store.storeEvent('b', PRIMING);
      const a1 = await store.storeEvent('a', note('a1'));
      await store.storeEvent('b', note('b1'));
      await store.storeEvent('a_1', note('a lookalike stream'));
      const a2 = await store.storeEvent('a', result(1, 'a2'));
      await store.storeEvent('b', result(2, 'b2'));
      expect((await replay(store, primingA)).events).toEqual([
        [a1, note('a1')],
        [a2, result(1, 'a2')],
      ]);
    });

    it('sends events stored while it is replaying', async () => {
      const store = new BoundedEventStore();
      const primingId = await store.storeEvent('a', PRIMING);
      await store.storeEvent('a', note('first'));
      const sent: string[] = [];
      await store.replayEventsAfter(primingId, {
        send: async (eventId) => {
          sent.push(eventId);
          if (sent.length === 1) await store.storeEvent('a', result(1, 'late'));
        },
      });
      expect(sent).toEqual(['a_2', 'a_3']);
    });

    it('rejects with EVENT_GAP rather than skip events evicted while it is replaying', async () => {
      const store = new BoundedEventStore({ maxEvents: 3 });
      const primingId = await store.storeEvent('a', PRIMING);
      await store.storeEvent('a', note('1'));
      await store.storeEvent('a', note('2'));
      const sent: string[] = [];
      const replaying = store.replayEventsAfter(primingId, {
        send: async (eventId) => {
          sent.push(eventId);
          // Other streams push `a_2` (sent) and `a_3` (not yet sent) out.
          for (let index = 0; index < 3; index += 1) await store.storeEvent('b', PRIMING);
          await store.storeEvent('a', note('3'));
        },
      });
      await expect(replaying).rejects.toMatchObject({ code: 'EVENT_GAP' });
      expect(sent).toEqual(['a_2']);
    });

    it('propagates a failing send', async () => {
      const store = new BoundedEventStore();
      const primingId = await store.storeEvent('a', PRIMING);
      await store.storeEvent('a', note('1'));
      await expect(store.replayEventsAfter(primingId, { send: () => Promise.reject(new Error('closed')) })).rejects.toThrow('closed');
    });

    it('rejects with EVENT_NOT_FOUND for an evicted id, sending nothing', async () => {
      const store = new BoundedEventStore({ maxEvents: 2 });
      const primingId = await store.storeEvent('a', PRIMING);
      await store.storeEvent('a', note('1'));
      await store.storeEvent('a', note('2'));
      const sent: string[] = [];
      await expect(store.replayEventsAfter(primingId, { send: async (eventId) => void sent.push(eventId) })).rejects.toMatchObject({
        code: 'EVENT_NOT_FOUND',
      });
      expect(sent).toEqual([]);
    });
  });

  describe('adversarial Last-Event-ID values', () => {
    const adversarial = [
      '',
      '_',
      'a',
      'a_',
      'a_0',
      'a_01',
      'a_+1',
      'a_1.0',
      'a_1e0',
      'a_-1',
      'a_2',
      'a_99999999999999999999999999',
      `a_${Number.MAX_SAFE_INTEGER}`,
      'a_Infinity',
      'a_NaN',
      '../a_1',
      'a_1/../b_2',
      '../../etc/passwd',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'a_1 ',
      ' a_1',
      'A_1',
      'x'.repeat(100_000),
    ];

    it.each(adversarial.map((id) => [id.length > 40 ? `${id.slice(0, 20)}…(${id.length})` : JSON.stringify(id), id]))(
      'knows no stream for %s and refuses to replay it',
      async (_label, eventId) => {
        const store = new BoundedEventStore();
        await store.storeEvent('a', PRIMING);
        await store.storeEvent('b', note('b'));
        await store.storeEvent('a', note('a'));
        const sent: string[] = [];
        await expect(store.getStreamIdForEventId(eventId)).resolves.toBeUndefined();
        await expect(store.replayEventsAfter(eventId, { send: async (id) => void sent.push(id) })).rejects.toMatchObject({
          code: 'EVENT_NOT_FOUND',
        });
        expect(sent).toEqual([]);
      },
    );

    it.each([undefined, null, 1, {}, ['a_1']])('knows no stream for the non-string %j', async (eventId) => {
      const store = new BoundedEventStore();
      await store.storeEvent('a', PRIMING);
      await expect(store.getStreamIdForEventId(eventId as never)).resolves.toBeUndefined();
    });

    it('treats an id from another store (another session) as unknown', async () => {
      const mine = new BoundedEventStore();
      const theirs = new BoundedEventStore();
      await theirs.storeEvent('theirs', PRIMING);
      const theirId = await theirs.storeEvent('theirs', note('secret'));
      await mine.storeEvent('mine', PRIMING);
      await expect(mine.getStreamIdForEventId(theirId)).resolves.toBeUndefined();
    });
  });
});
