import { createServer } from 'node:net';
import { MilpaError, VerificationRequest, type PendingApproval, type VerificationRecord } from '@milpa/core';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeWithPostgres, POSTGRES_URL, uniqueSchema, useTestDatabase } from '../test/postgres-server.js';
import { PostgresStoreError } from './errors/postgres-store-error.js';
import { PostgresStores, type PostgresStoresOptions } from './postgres-stores.js';

const database = useTestDatabase('unit');
const BINDING = { principal: 'user:alice', channel: 'web' };
const open: PostgresStores[] = [];
afterEach(async () => {
  for (const stores of open.splice(0)) await stores.close();
});

/** A schema of its own for one test, dropped with the file's. */
function freshSchema(): string {
  const schema = uniqueSchema('unit');
  database.schemas.push(schema);
  return schema;
}

/** Stores on the file's pool (timer off), in the file's schema unless given another. */
async function connect(options: PostgresStoresOptions = {}): Promise<PostgresStores> {
  const stores = await PostgresStores.connect({ pool: database.pool, schema: database.schema, sweepIntervalMs: 0, ...options });
  open.push(stores);
  return stores;
}

async function rejectionOf(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );
}

async function storeErrorOf(work: Promise<unknown>): Promise<PostgresStoreError> {
  const error = await rejectionOf(work);
  expect(error).toBeInstanceOf(PostgresStoreError);
  return error as PostgresStoreError;
}

async function sql(text: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  return (await database.pool.query(text, values)).rows as Record<string, unknown>[];
}

async function rowCount(schema: string, table: string): Promise<number> {
  return Number((await sql(`SELECT COUNT(*) AS n FROM "${schema}".${table}`))[0]?.['n']);
}

function heldCall(approvalId: string, now: number, args: Record<string, unknown> = { id: 7 }): PendingApproval {
  return {
    approvalId,
    toolName: 'delete_note',
    arguments: args,
    argumentsDigest: 'digest',
    principal: 'agent:7',
    channel: 'mcp',
    runId: null,
    requestId: 'req-1',
    createdAt: new Date(now),
    expiresAt: new Date(now + 60_000),
    redeemedAt: null,
  };
}

function pendingRecord(id: string, now: number): VerificationRecord {
  return {
    id,
    request: new VerificationRequest('gate:report.publish', 'single', {}, 'user:requester', id),
    createdAt: new Date(now),
    expiresAt: new Date(now + 60_000),
    requiredApprovals: 1,
    approvals: [],
    result: null,
    resolvedAt: null,
  };
}

/** A loopback port where nothing listens. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeWithPostgres('PostgresStores', () => {
  describe('connect', () => {
    it('creates the schema, its tables and the listing indexes in a fresh schema, at schema version 1', async () => {
      const schema = freshSchema();
      const stores = await connect({ schema });
      expect(stores.schema).toBe(schema);
      expect(await sql(`SELECT version FROM "${schema}".schema_version`)).toEqual([{ version: 1 }]);
      const tables = await sql('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema]);
      expect(tables.map((row) => row['table_name'])).toEqual([
        'approval_holds',
        'confirmation_tokens',
        'idempotency_keys',
        'invocation_observations',
        'invocation_reservations',
        'invocation_runs',
        'rate_limit_buckets',
        'schema_version',
        'verification_records',
      ]);
      const indexes = (await sql('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [schema])).map((row) => row['indexname']);
      expect(indexes).toEqual(
        expect.arrayContaining([
          'approval_holds_waiting',
          'approval_holds_redeemed',
          'verification_records_pending',
          'verification_records_decided',
        ]),
      );
    });

    it('reopens a schema with everything it held and migrates nothing twice', async () => {
      const schema = freshSchema();
      const first = await connect({ schema });
      const { token } = await first.confirmation.create('delete_note', { id: 42 }, 'delete_note(id=42)', BINDING);
      await first.close();
      const second = await connect({ schema });
      expect(await sql(`SELECT version FROM "${schema}".schema_version`)).toEqual([{ version: 1 }]);
      expect(await second.confirmation.consume(token, 'delete_note', BINDING)).toEqual({ id: 42 });
    });

    it('refuses a schema written by a newer version of the package, naming the schema and both versions', async () => {
      const schema = freshSchema();
      await connect({ schema });
      await sql(`UPDATE "${schema}".schema_version SET version = 7`);
      const error = await storeErrorOf(connect({ schema }));
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'database', failure: 'schema' });
      expect(error.message).toContain(`"${schema}"`);
      expect(error.message).toMatch(/schema version 7, newer than the 1/);
      expect(await sql(`SELECT version FROM "${schema}".schema_version`)).toEqual([{ version: 7 }]);
    });

    it('refuses a schema_version table that holds no version, as malformed', async () => {
      const schema = freshSchema();
      await connect({ schema });
      await sql(`INSERT INTO "${schema}".schema_version (version) VALUES (1)`);
      expect(await storeErrorOf(connect({ schema }))).toMatchObject({ store: 'database', failure: 'malformed' });
    });

    it('refuses options out of range, a bad schema name, and a connection string together with a pool, before connecting', async () => {
      const cases: PostgresStoresOptions[] = [
        { confirmationTtlSeconds: 0 },
        { sweepLimit: 0 },
        { statementTimeoutMs: 1.5 },
        { connectTimeoutMs: -1 },
        { maxObservationsPerRun: 0 },
        { schema: 'milpa; DROP TABLE x' },
        { schema: '' },
        { connectionString: POSTGRES_URL, pool: database.pool },
        { pool: {} as pg.Pool },
        { now: 5 as unknown as () => number },
      ];
      for (const options of cases) {
        const error = await rejectionOf(PostgresStores.connect({ sweepIntervalMs: 0, ...options }));
        expect(MilpaError.isInstance(error) && error.code, JSON.stringify(Object.keys(options))).toBe('INVALID_ARGUMENT');
      }
    });

    it('connects through a connection string with a pool of its own, which close ends', async () => {
      const schema = freshSchema();
      const stores = await PostgresStores.connect({ connectionString: POSTGRES_URL, schema, sweepIntervalMs: 0 });
      expect((await stores.rateLimiter.consume('web:alice:search', 2, 60, 10)).remainingTokens).toBe(8);
      await stores.close();
      await stores.close();
      expect(await storeErrorOf(stores.rateLimiter.getUsage('web:alice:search'))).toMatchObject({ store: 'rate_limit', failure: 'closed' });
    });

    it('fails as unreachable, naming the address, within the connect timeout, when nothing listens on the port', async () => {
      const port = await closedPort();
      const started = Date.now();
      const error = await storeErrorOf(
        PostgresStores.connect({ connectionString: `postgres://postgres@127.0.0.1:${String(port)}/test`, connectTimeoutMs: 1_000 }),
      );
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'database', failure: 'unreachable' });
      expect(error.message).toContain(`127.0.0.1:${String(port)}`);
    });
  });

  describe('close', () => {
    it('makes every store throw a closed failure naming it, and leaves a pool it was given open', async () => {
      const stores = await connect();
      await stores.close();
      const calls: [string, Promise<unknown>][] = [
        ['confirmation', stores.confirmation.isValid('t', 'delete_note', BINDING)],
        ['rate_limit', stores.rateLimiter.consume('k')],
        ['verification', stores.verification.get('v')],
        ['approval', stores.approval.get('a')],
        ['idempotency', stores.idempotency.get('i')],
        ['history', stores.history.load('r')],
      ];
      for (const [store, call] of calls) {
        const error = await storeErrorOf(call);
        expect(error).toMatchObject({ store, failure: 'closed' });
        expect(error.message).toContain('is closed');
      }
      expect(await sql('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    });
  });

  describe('failures', () => {
    it('fails with a timeout, and changes nothing, when another connection holds the row past the statement timeout', async () => {
      const schema = freshSchema();
      const stores = await PostgresStores.connect({ connectionString: POSTGRES_URL, schema, sweepIntervalMs: 0, statementTimeoutMs: 300 });
      open.push(stores);
      const now = Date.now();
      await stores.approval.open(heldCall('held-locked', now));
      const holder = await database.pool.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(`SELECT * FROM "${schema}".approval_holds WHERE approval_id = 'held-locked' FOR UPDATE`);
        const claim = { toolName: 'delete_note', principal: 'agent:7', channel: 'mcp', runId: null, at: new Date(now) };
        const error = await storeErrorOf(stores.approval.redeem('held-locked', claim));
        expect(error).toMatchObject({ store: 'approval', failure: 'timeout' });
        expect(error.message).toMatch(/PostgreSQL approval store gave up waiting/);
        await holder.query('ROLLBACK');
        expect((await stores.approval.get('held-locked'))?.redeemedAt).toBeNull();
        expect((await stores.approval.redeem('held-locked', claim)).status).toBe('redeemed');
      } finally {
        holder.release();
      }
    });

    it('reports a statement PostgreSQL refuses as an engine failure naming the store', async () => {
      const schema = freshSchema();
      const stores = await connect({ schema });
      await sql(`DROP TABLE "${schema}".idempotency_keys`);
      const error = await storeErrorOf(stores.idempotency.get('key'));
      expect(error).toMatchObject({ store: 'idempotency', failure: 'engine' });
      expect(error.message).toMatch(/^The PostgreSQL idempotency store failed: .*idempotency_keys/);
    });
  });

  describe('malformed rows', () => {
    it('refuses to redeem a token whose stored arguments are not JSON, and keeps the token', async () => {
      const stores = await connect();
      const { token } = await stores.confirmation.create('delete_note', { id: 1 }, 'delete_note(id=1)', BINDING);
      await sql(`UPDATE "${database.schema}".confirmation_tokens SET args_json = 'not json' WHERE token = $1`, [token]);
      const error = await storeErrorOf(stores.confirmation.consume(token, 'delete_note', BINDING));
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'confirmation', failure: 'malformed' });
      expect(error.message).toContain('PostgreSQL confirmation store found a malformed row');
      expect(await sql(`SELECT token FROM "${database.schema}".confirmation_tokens WHERE token = $1`, [token])).toHaveLength(1);
    });

    it('refuses to spend from a bucket whose usage is out of range', async () => {
      const stores = await connect();
      await stores.rateLimiter.consume('web:malformed:search', 1, 60, 10);
      await sql(`UPDATE "${database.schema}".rate_limit_buckets SET used = -1 WHERE key = 'web:malformed:search'`);
      expect(await storeErrorOf(stores.rateLimiter.consume('web:malformed:search', 1, 60, 10))).toMatchObject({
        store: 'rate_limit',
        failure: 'malformed',
      });
    });

    it('refuses to read or decide a verification record that is not one', async () => {
      const stores = await connect();
      await stores.verification.open(pendingRecord('verification-malformed', Date.now()));
      await sql(`UPDATE "${database.schema}".verification_records SET record_json = '{"request": 1}' WHERE id = 'verification-malformed'`);
      expect(await storeErrorOf(stores.verification.get('verification-malformed'))).toMatchObject({
        store: 'verification',
        failure: 'malformed',
      });
    });

    it('refuses to load a history holding an outcome it does not know', async () => {
      const stores = await connect();
      await stores.history.startRun('run-malformed');
      await stores.history.append('run-malformed', { tool: 'search_notes', outcome: 'executed', target: null });
      await sql(`UPDATE "${database.schema}".invocation_observations SET outcome = 'exploded' WHERE run_id = 'run-malformed'`);
      expect(await storeErrorOf(stores.history.load('run-malformed'))).toMatchObject({ store: 'history', failure: 'malformed' });
    });

    it('refuses a held call with a damaged settlement, and refuses a malformed settlement with INVALID_ARGUMENT', async () => {
      const stores = await connect();
      const now = Date.now();
      await stores.approval.open(heldCall('held-settle', now));
      const claim = { toolName: 'delete_note', principal: 'agent:7', channel: 'mcp', runId: null, at: new Date(now) };
      await stores.approval.redeem('held-settle', claim);
      const bad = await rejectionOf(stores.approval.settle('held-settle', { outcome: 'maybe', code: null, at: new Date() } as never));
      expect(MilpaError.isInstance(bad) && bad.code).toBe('INVALID_ARGUMENT');
      await sql(`UPDATE "${database.schema}".approval_holds SET settled_outcome = 'maybe' WHERE approval_id = 'held-settle'`);
      expect(await storeErrorOf(stores.approval.get('held-settle'))).toMatchObject({ store: 'approval', failure: 'malformed' });
    });
  });

  describe('values', () => {
    it('refuses arguments that are not plain JSON data with INVALID_ARGUMENT and stores nothing', async () => {
      const schema = freshSchema();
      const stores = await connect({ schema });
      for (const args of [{ when: new Date() }, { n: Number.NaN }, { f: () => 1 }, { big: 1n }]) {
        const error = await rejectionOf(stores.confirmation.create('delete_note', args, 'delete_note', BINDING));
        expect(MilpaError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
        const held = await rejectionOf(stores.approval.open(heldCall('held-bad', Date.now(), args)));
        expect(MilpaError.isInstance(held) && held.code).toBe('INVALID_ARGUMENT');
      }
      expect(await rowCount(schema, 'confirmation_tokens')).toBe(0);
      expect(await rowCount(schema, 'approval_holds')).toBe(0);
    });

    it('reads its rows the same when the pool parses bigint columns as numbers', async () => {
      const parsing = new pg.Pool({
        connectionString: POSTGRES_URL,
        max: 2,
        types: { getTypeParser: (oid: number, format?: unknown) => (oid === 20 ? Number : pg.types.getTypeParser(oid, format as 'text')) },
      } as pg.PoolConfig);
      try {
        expect(typeof (await parsing.query('SELECT 1::bigint AS n')).rows[0]?.n).toBe('number');
        const now = Date.now();
        const stores = await connect({ pool: parsing });
        await stores.approval.open(heldCall('held-parsed', now));
        expect((await stores.approval.get('held-parsed'))?.expiresAt.getTime()).toBe(now + 60_000);
        await stores.close();
      } finally {
        await parsing.end();
      }
    });
  });

  describe('history', () => {
    it('drops the oldest observation past maxObservationsPerRun and marks the run incomplete', async () => {
      const stores = await connect({ maxObservationsPerRun: 2 });
      await stores.history.startRun('run-bounded');
      for (const tool of ['a', 'b', 'c']) await stores.history.append('run-bounded', { tool, outcome: 'executed', target: null });
      const history = await stores.history.load('run-bounded');
      expect(history?.observations.map((observation) => observation.tool)).toEqual(['b', 'c']);
      expect(history?.complete).toBe(false);
    });

    it('forgets a run idle for its TTL, and a fresh start under its id begins empty', async () => {
      const clock = { now: Date.now() };
      const stores = await connect({ historyIdleTtlSeconds: 60, now: () => clock.now });
      await stores.history.startRun('run-idle');
      await stores.history.append('run-idle', { tool: 'a', outcome: 'executed', target: null });
      clock.now += 60_000;
      expect(await stores.history.load('run-idle')).toBeNull();
      expect(await stores.history.startRun('run-idle')).toBe(true);
      expect(await stores.history.load('run-idle')).toMatchObject({ complete: true, length: 0 });
    });

    it('refuses a lease that is not a whole number of milliseconds, taking no place', async () => {
      const stores = await connect();
      await stores.history.startRun('run-lease');
      const error = await rejectionOf(stores.history.reserve('run-lease', { tool: 'a', target: null }, 1.5));
      expect(MilpaError.isInstance(error) && error.code).toBe('INVALID_ARGUMENT');
      expect((await stores.history.load('run-lease'))?.inFlight).toEqual([]);
    });

    it('records the observation of a settle whose place id it never gave out', async () => {
      const stores = await connect();
      await stores.history.startRun('run-foreign');
      await stores.history.reserve('run-foreign', { tool: 'kept', target: null }, 60_000);
      await stores.history.settle('run-foreign', 'not-a-place', { tool: 'other', outcome: 'executed', target: null });
      expect(await stores.history.load('run-foreign')).toMatchObject({ length: 1, inFlight: [{ tool: 'kept', target: null }] });
    });
  });

  describe('sweep', () => {
    it('removes at most sweepLimit expired rows per table, keeps live ones, and takes idle runs with their rows', async () => {
      const schema = freshSchema();
      const clock = { now: Date.now() };
      const stores = await connect({ schema, sweepLimit: 2, confirmationTtlSeconds: 1, historyIdleTtlSeconds: 1, now: () => clock.now });
      for (let index = 0; index < 3; index += 1) await stores.confirmation.create('delete_note', { id: index }, 'x', BINDING);
      await stores.history.startRun('run-swept');
      await stores.history.append('run-swept', { tool: 'a', outcome: 'executed', target: null });
      await stores.history.reserve('run-swept', { tool: 'b', target: null }, 60_000);
      clock.now += 5_000;
      const live = await stores.confirmation.create('delete_note', { id: 9 }, 'x', BINDING);
      expect(await stores.sweep()).toBe(3);
      expect(await rowCount(schema, 'confirmation_tokens')).toBe(2);
      expect(await rowCount(schema, 'invocation_runs')).toBe(0);
      expect(await rowCount(schema, 'invocation_observations')).toBe(0);
      expect(await rowCount(schema, 'invocation_reservations')).toBe(0);
      expect(await stores.sweep()).toBe(1);
      expect(await stores.confirmation.isValid(live.token, 'delete_note', BINDING)).toBe(true);
    });

    it('never waits for a row a call holds locked: it skips the row and removes it on a later sweep', async () => {
      const schema = freshSchema();
      const clock = { now: Date.now() };
      const stores = await connect({ schema, now: () => clock.now });
      await stores.approval.open(heldCall('held-busy', clock.now));
      await stores.approval.open(heldCall('held-idle', clock.now));
      clock.now += 2 * 3_600_000;
      const holder = await database.pool.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(`SELECT * FROM "${schema}".approval_holds WHERE approval_id = 'held-busy' FOR UPDATE`);
        expect(await stores.sweep()).toBe(1);
        await holder.query('COMMIT');
      } finally {
        holder.release();
      }
      expect(await stores.sweep()).toBe(1);
      expect(await rowCount(schema, 'approval_holds')).toBe(0);
    });

    it('runs on its timer every sweepIntervalMs', async () => {
      const schema = freshSchema();
      const clock = { now: Date.now() };
      const stores = await connect({ schema, sweepIntervalMs: 20, confirmationTtlSeconds: 1, now: () => clock.now });
      await stores.confirmation.create('delete_note', { id: 1 }, 'x', BINDING);
      clock.now += 5_000;
      await vi.waitFor(async () => expect(await rowCount(schema, 'confirmation_tokens')).toBe(0), { timeout: 30_000, interval: 50 });
    });
  });
});
