import { connect, createServer, type Server, type Socket } from 'node:net';
import { MilpaError, VerificationRequest, VerificationResult, type PendingApproval, type VerificationRecord } from '@milpa/core';
import { afterEach, describe, expect, it } from 'vitest';
import { describeWithRedis, REDIS_URL, useTestRedis } from '../test/redis-server.js';
import { RedisStoreError } from './errors/redis-store-error.js';
import type { RedisStoreClient } from './connection/redis-store-client.js';
import { RedisStores, type RedisStoresOptions } from './redis-stores.js';

const redis = useTestRedis('unit');
const BINDING = { principal: 'user:alice', channel: 'web' };
const opened: RedisStores[] = [];
let count = 0;

afterEach(async () => {
  for (const stores of opened.splice(0)) await stores.close();
});

/** Stores on the file's client under a prefix of their own. */
async function connectStores(options: RedisStoresOptions = {}): Promise<RedisStores> {
  count += 1;
  const stores = await RedisStores.connect({ client: redis.client, prefix: `${redis.prefix}${String(count)}:`, ...options });
  opened.push(stores);
  return stores;
}

function pendingRecord(id: string, now: number, expiresAt: number | null = now + 60_000): VerificationRecord {
  return {
    id,
    request: new VerificationRequest('gate:report.publish', 'single', { amount: 3 }, 'user:requester', id),
    createdAt: new Date(now),
    expiresAt: expiresAt === null ? null : new Date(expiresAt),
    requiredApprovals: 1,
    approvals: [],
    result: null,
    resolvedAt: null,
  };
}

/** A held call of `agent:7`'s delete_note, open for a minute from `now`. */
function heldCall(approvalId: string, now: number): PendingApproval {
  const bound = {
    toolName: 'delete_note',
    arguments: { id: 7 },
    argumentsDigest: 'digest',
    principal: 'agent:7',
    channel: 'mcp',
    runId: null,
    requestId: 'req-1',
  };
  return { approvalId, ...bound, createdAt: new Date(now), expiresAt: new Date(now + 60_000), redeemedAt: null };
}

async function storeErrorOf(work: Promise<unknown>): Promise<RedisStoreError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(RedisStoreError);
  return error as RedisStoreError;
}

/** Every key under `prefix`. */
async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of redis.client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) keys.push(...batch);
  return keys.sort();
}

/** A TCP proxy to the test Redis that can be cut, to play a server that goes away. */
async function startProxy(): Promise<{ readonly url: string; cut(): Promise<void> }> {
  const target = new URL(REDIS_URL);
  const sockets = new Set<Socket>();
  const server: Server = createServer((incoming) => {
    const outgoing = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    incoming.pipe(outgoing).pipe(incoming);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const auth = target.username || target.password ? `${target.username}:${target.password}@` : '';
  return {
    url: `redis://${auth}127.0.0.1:${String(port)}${target.pathname}`,
    cut: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on: one the OS just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeWithRedis('RedisStores', () => {
  describe('connect', () => {
    it('connects to the url it is given and answers through its own client', async () => {
      const stores = await RedisStores.connect({ url: REDIS_URL, prefix: `${redis.prefix}own:` });
      opened.push(stores);
      expect((await stores.rateLimiter.consume('web:alice:search', 2, 60, 10)).remainingTokens).toBe(8);
      expect(stores.prefix).toBe(`${redis.prefix}own:`);
    });

    it('refuses options out of range, and a url together with a client, before connecting', async () => {
      const cases: RedisStoresOptions[] = [
        { prefix: '' },
        { confirmationTtlSeconds: 0 },
        { commandTimeoutMs: 1.5 },
        { connectTimeoutMs: -1 },
        { maxObservationsPerRun: 0 },
        { url: REDIS_URL, client: redis.client },
        { client: {} as RedisStoreClient },
      ];
      for (const options of cases) {
        const error = await RedisStores.connect(options).then(
          () => null,
          (thrown: unknown) => thrown,
        );
        expect(MilpaError.isInstance(error) && error.code, JSON.stringify(Object.keys(options))).toBe('INVALID_ARGUMENT');
      }
    });

    it('fails with a RedisStoreError naming the connection, within the connect timeout, when nothing listens on the port', async () => {
      const port = await closedPort();
      const started = Date.now();
      const error = await storeErrorOf(RedisStores.connect({ url: `redis://127.0.0.1:${String(port)}`, connectTimeoutMs: 1_000 }));
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(error.code).toBe('STORE_UNAVAILABLE');
      expect(error.store).toBe('connection');
      expect(error.failure).toBe('unreachable');
      expect(error.message).toContain(`127.0.0.1:${String(port)}`);
      expect(error.message).toMatch(/ECONNREFUSED|connect/);
    });

    it('fails with a timeout when the server accepts the connection but never answers', async () => {
      const silent = createServer((socket) => socket.on('error', () => undefined));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const { port } = silent.address() as { port: number };
      try {
        const started = Date.now();
        const error = await storeErrorOf(RedisStores.connect({ url: `redis://127.0.0.1:${String(port)}`, connectTimeoutMs: 500 }));
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(error.store).toBe('connection');
        expect(error.failure).toBe('timeout');
      } finally {
        silent.close();
      }
    });

    it('fails when the client it is given is closed', async () => {
      const closed: RedisStoreClient = { isOpen: false, sendCommand: () => Promise.resolve('PONG') };
      const error = await storeErrorOf(RedisStores.connect({ client: closed }));
      expect(error.store).toBe('connection');
      expect(error.failure).toBe('closed');
    });
  });

  describe('failures after connecting', () => {
    it('fails with a timeout naming the store when a command gets no answer within commandTimeoutMs', async () => {
      let hang = false;
      const client: RedisStoreClient = {
        isOpen: true,
        sendCommand: (args) => (hang ? new Promise(() => undefined) : redis.client.sendCommand([...args])),
      };
      const stores = await connectStores({ client, commandTimeoutMs: 200 });
      hang = true;
      const started = Date.now();
      const error = await storeErrorOf(stores.rateLimiter.consume('web:alice:search'));
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'rate_limit', failure: 'timeout' });
      expect(error.message).toBe('The Redis rate limiter got no answer from Redis within 200 ms.');
    });

    it('fails with unreachable, naming the store and the cause, once the server goes away, and serves again when it is back', async () => {
      const proxy = await startProxy();
      const stores = await RedisStores.connect({
        url: proxy.url,
        prefix: `${redis.prefix}proxy:`,
        connectTimeoutMs: 2_000,
        commandTimeoutMs: 2_000,
      });
      opened.push(stores);
      const { token } = await stores.confirmation.create('delete_note', { id: 1 }, 'delete_note(id=1)', BINDING);
      await proxy.cut();
      const started = Date.now();
      const error = await storeErrorOf(stores.confirmation.consume(token, 'delete_note', BINDING));
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(error.store).toBe('confirmation');
      expect(['unreachable', 'timeout']).toContain(error.failure);
      expect(error.message).toMatch(/^The Redis confirmation store (cannot reach Redis|got no answer)/);
      // Nothing was redeemed: the token is still there for a client that can reach Redis.
      const direct = await connectStores({ prefix: `${redis.prefix}proxy:` });
      expect(await direct.confirmation.isValid(token, 'delete_note', BINDING)).toBe(true);
    });

    it('reports a malformed failure for data of another type under a store key, and changes nothing', async () => {
      const stores = await connectStores();
      const key = `${stores.prefix}confirmation:0123456789abcdef0123456789abcdef`;
      await redis.client.set(key, 'not a hash');
      const error = await storeErrorOf(stores.confirmation.consume('0123456789abcdef0123456789abcdef', 'delete_note', BINDING));
      expect(error).toMatchObject({ store: 'confirmation', failure: 'malformed' });
      expect(error.message).toContain('WRONGTYPE');
      expect(await redis.client.get(key)).toBe('not a hash');
    });

    it('reads a held call written before settlements existed as unsettled, settles it, and refuses a malformed settlement', async () => {
      const stores = await connectStores();
      const now = Date.now();
      const held = heldCall('a-2', now);
      await stores.approval.open(held);
      await stores.approval.redeem('a-2', {
        toolName: held.toolName,
        principal: held.principal,
        channel: held.channel,
        runId: held.runId,
        at: new Date(now),
      });
      const key = `${stores.prefix}approval:a-2`;
      const { settlement: _none, ...older } = JSON.parse((await redis.client.get(key))!) as Record<string, unknown>;
      await redis.client.set(key, JSON.stringify(older));
      expect((await stores.approval.get('a-2'))?.settlement).toBeNull();
      const settlement = { outcome: 'succeeded', code: null, at: new Date(now + 1_000) } as const;
      expect(await stores.approval.settle('a-2', settlement)).toBe(true);
      expect((await stores.approval.get('a-2'))?.settlement).toEqual(settlement);
      await redis.client.set(key, JSON.stringify({ ...older, settlement: { outcome: 'exploded', code: null, at: now } }));
      expect(await storeErrorOf(stores.approval.get('a-2'))).toMatchObject({ store: 'approval', failure: 'malformed' });
      const bad = { outcome: 'succeeded', code: 7, at: new Date() } as unknown as typeof settlement;
      await expect(stores.approval.settle('a-2', bad)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    });

    it('reports malformed data in each store rather than guessing an answer', async () => {
      const stores = await connectStores();
      const now = Date.now();
      const prefix = stores.prefix;
      await redis.client.hSet(`${prefix}confirmation:aaaa`, { tool: 'delete_note', principal: '"user:alice"' });
      await redis.client.hSet(`${prefix}rate-limit:web:alice:search`, { start: String(now), window_ms: '60000', used: 'lots' });
      await redis.client.set(`${prefix}verification:v-1`, '{"not":"a record"');
      await redis.client.set(`${prefix}approval:a-1`, JSON.stringify({ forgetAt: now + 60_000, approvalId: 'a-1' }));
      await redis.client.set(`${prefix}idempotency:k-1`, JSON.stringify({ key: 'k-1', state: 'done' }));
      await redis.client.hSet(`${prefix}history:run-1`, { complete: 'yes', touched: String(now), first: '1', next: '1' });
      const failures = [
        await storeErrorOf(stores.confirmation.isValid('aaaa', 'delete_note', BINDING)),
        await storeErrorOf(stores.rateLimiter.consume('web:alice:search')),
        await storeErrorOf(stores.rateLimiter.getUsage('web:alice:search')),
        await storeErrorOf(stores.verification.get('v-1')),
        await storeErrorOf(
          stores.approval.redeem('a-1', { toolName: 'delete_note', principal: 'agent:7', channel: 'mcp', runId: null, at: new Date(now) }),
        ),
        await storeErrorOf(stores.idempotency.get('k-1')),
        await storeErrorOf(stores.history.load('run-1')),
        await storeErrorOf(stores.history.append('run-1', { tool: 'search', outcome: 'executed', target: null })),
      ];
      expect(failures.map((failure) => [failure.store, failure.failure])).toEqual([
        ['confirmation', 'malformed'],
        ['rate_limit', 'malformed'],
        ['rate_limit', 'malformed'],
        ['verification', 'malformed'],
        ['approval', 'malformed'],
        ['idempotency', 'malformed'],
        ['history', 'malformed'],
        ['history', 'malformed'],
      ]);
      for (const failure of failures) expect(failure.message).toMatch(/^The Redis .+ found malformed data \(.+\)/);
      expect(await redis.client.hGet(`${prefix}rate-limit:web:alice:search`, 'used')).toBe('lots');
    });

    it('reports malformed places of calls in flight, and changes nothing', async () => {
      const stores = await connectStores();
      const key = `${stores.prefix}history:run-2`;
      await stores.history.startRun('run-2');
      for (const places of [
        'not json',
        JSON.stringify([{ id: 'p', call: '{}' }]),
        JSON.stringify([{ id: 'p', exp: '99999999999999', call: 'not json' }]),
      ]) {
        await redis.client.hSet(key, 'places', places);
        const call = stores.history.reserve('run-2', { tool: 'delete_note', target: null }, 60_000);
        expect(await storeErrorOf(call)).toMatchObject({ store: 'history', failure: 'malformed' });
        expect(await redis.client.hGet(key, 'places')).toBe(places);
      }
    });

    it('refuses a lease that is not a whole number of milliseconds, taking no place', async () => {
      const stores = await connectStores();
      await stores.history.startRun('run-3');
      for (const lease of [0, -5, 1.5, Number.NaN]) {
        await expect(stores.history.reserve('run-3', { tool: 'a', target: null }, lease)).rejects.toThrow(/leaseMs must be a whole number/);
      }
      expect((await stores.history.load('run-3'))?.inFlight).toEqual([]);
    });
  });

  describe('keys', () => {
    it('keeps two prefixes apart: what one writes the other never sees', async () => {
      const first = await connectStores();
      const second = await connectStores();
      const { token } = await first.confirmation.create('delete_note', { id: 1 }, 'delete_note(id=1)', BINDING);
      await first.rateLimiter.consume('web:alice:search', 5, 60, 10);
      await first.verification.open(pendingRecord('v-1', Date.now()));
      await first.history.startRun('run-1');
      expect(await second.confirmation.isValid(token, 'delete_note', BINDING)).toBe(false);
      expect(await second.rateLimiter.getUsage('web:alice:search')).toBe(0);
      expect(await second.verification.get('v-1')).toBeNull();
      expect(await second.history.load('run-1')).toBeNull();
      expect(await second.history.startRun('run-1')).toBe(true);
      expect(await first.rateLimiter.getUsage('web:alice:search')).toBe(5);
      expect(await keysUnder(first.prefix)).toEqual([
        `${first.prefix}confirmation:${token}`,
        `${first.prefix}history:run-1`,
        `${first.prefix}rate-limit:web:alice:search`,
        `${first.prefix}verification:v-1`,
      ]);
    });

    it('sets a TTL on the server on every key it writes, bounded by the lifetime it keeps', async () => {
      const now = Date.now();
      const stores = await connectStores({
        confirmationTtlSeconds: 30,
        verificationRetentionMs: 1_000,
        approvalRetentionMs: 2_000,
        historyIdleTtlSeconds: 600,
      });
      const prefix = stores.prefix;
      const { token } = await stores.confirmation.create('delete_note', { id: 1 }, 'delete_note(id=1)', BINDING);
      await stores.rateLimiter.consume('web:alice:search', 1, 20, 10);
      await stores.verification.open(pendingRecord('v-1', now));
      await stores.approval.open(heldCall('a-1', now));
      await stores.idempotency.begin({
        key: 'k-1',
        toolName: 'create_invoice',
        principal: 'agent:7',
        argumentsDigest: 'd',
        owner: 'o-1',
        at: new Date(now),
        leaseMs: 5_000,
        retentionMs: 7_000,
      });
      await stores.history.startRun('run-1');
      const ttls = {
        confirmation: await redis.client.pTTL(`${prefix}confirmation:${token}`),
        rateLimit: await redis.client.pTTL(`${prefix}rate-limit:web:alice:search`),
        verification: await redis.client.pTTL(`${prefix}verification:v-1`),
        approval: await redis.client.pTTL(`${prefix}approval:a-1`),
        idempotency: await redis.client.pTTL(`${prefix}idempotency:k-1`),
        history: await redis.client.pTTL(`${prefix}history:run-1`),
      };
      for (const ttl of Object.values(ttls)) expect(ttl).toBeGreaterThan(0);
      expect(ttls.confirmation).toBeLessThanOrEqual(30_000);
      expect(ttls.rateLimit).toBeLessThanOrEqual(20_000);
      expect(ttls.verification).toBeLessThanOrEqual(61_001);
      expect(ttls.approval).toBeLessThanOrEqual(62_001);
      expect(ttls.idempotency).toBeLessThanOrEqual(12_000);
      expect(ttls.history).toBeLessThanOrEqual(600_000);
    });

    it('keeps a pending verification without a deadline until it is decided, then for the retention only', async () => {
      const now = Date.now();
      const stores = await connectStores({ verificationRetentionMs: 5_000 });
      const key = `${stores.prefix}verification:v-1`;
      await stores.verification.open(pendingRecord('v-1', now, null));
      expect(await redis.client.pTTL(key)).toBe(-1);
      await stores.verification.decide('v-1', {
        kind: 'reject',
        principal: 'user:approver',
        reason: null,
        at: new Date(now),
        subject: null,
        result: VerificationResult.fail('no'),
      });
      const ttl = await redis.client.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(5_001);
    });

    it('removes a token on the server when its TTL runs out', async () => {
      const stores = await connectStores({ confirmationTtlSeconds: 1 });
      const { token } = await stores.confirmation.create('delete_note', { id: 1 }, 'delete_note(id=1)', BINDING);
      const key = `${stores.prefix}confirmation:${token}`;
      await redis.client.pExpire(key, 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await redis.client.exists(key)).toBe(0);
      expect(await stores.confirmation.consume(token, 'delete_note', BINDING)).toBeNull();
    });
  });

  describe('scripts', () => {
    it('sends a script in full when the server has forgotten it', async () => {
      const stores = await connectStores();
      await stores.rateLimiter.consume('web:alice:search', 1, 60, 10);
      await redis.client.scriptFlush();
      expect((await stores.rateLimiter.consume('web:alice:search', 1, 60, 10)).remainingTokens).toBe(8);
    });

    it('refuses arguments JSON would change, and stores nothing', async () => {
      const stores = await connectStores();
      for (const args of [{ when: new Date() }, { id: 1n }, { gone: undefined }, { ratio: Number.NaN }]) {
        const error = await stores.confirmation.create('delete_note', args as never, 'delete_note', BINDING).then(
          () => null,
          (thrown: unknown) => thrown,
        );
        expect(MilpaError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
      }
      expect(await keysUnder(stores.prefix)).toEqual([]);
    });
  });

  describe('close', () => {
    it('closes the client it created; every store then fails as closed, and closing again is harmless', async () => {
      const stores = await RedisStores.connect({ url: REDIS_URL, prefix: `${redis.prefix}closing:` });
      await stores.close();
      await stores.close();
      const error = await storeErrorOf(stores.history.load('run-1'));
      expect(error).toMatchObject({ store: 'history', failure: 'closed', message: 'The Redis invocation history store is closed.' });
    });

    it('leaves a client it was given open', async () => {
      const stores = await RedisStores.connect({ client: redis.client, prefix: `${redis.prefix}given:` });
      await stores.close();
      expect(redis.client.isOpen).toBe(true);
      expect(await redis.client.ping()).toBe('PONG');
      expect(await storeErrorOf(stores.idempotency.get('k-1'))).toMatchObject({ store: 'idempotency', failure: 'closed' });
    });
  });
});
