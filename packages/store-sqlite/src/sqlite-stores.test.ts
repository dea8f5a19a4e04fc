import { writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { MilpaError, VerificationRequest, VerificationResult, type PendingApproval, type VerificationRecord } from '@milpa/core';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { temporaryDirectory } from '../test/temporary-database.js';
import { SqliteStoreError } from './errors/sqlite-store-error.js';
import { SqliteStores, type SqliteStoresOptions } from './sqlite-stores.js';

const files = temporaryDirectory();
afterAll(() => files.remove());

const BINDING = { principal: 'user:alice', channel: 'web' };
let count = 0;
const open: SqliteStores[] = [];
afterEach(() => {
  for (const stores of open.splice(0)) stores.close();
});

function newPath(): string {
  count += 1;
  return files.path(`unit-${String(count)}.db`);
}

function openStores(path = newPath(), options: SqliteStoresOptions = {}): SqliteStores {
  const stores = SqliteStores.open(path, { sweepIntervalMs: 0, ...options });
  open.push(stores);
  return stores;
}

/** A raw connection to the same file, to inspect or damage what the stores wrote. */
function raw(path: string): Database.Database {
  return new Database(path);
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

function storeErrorOf(work: () => unknown): SqliteStoreError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(SqliteStoreError);
    return error as SqliteStoreError;
  }
  throw new Error('expected a SqliteStoreError');
}

function rowCount(path: string, table: string): number {
  const db = raw(path);
  const { n } = db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number };
  db.close();
  return n;
}

describe('SqliteStores', () => {
  describe('open', () => {
    it('creates the schema in an empty file, in WAL mode, at schema version 4', () => {
      const path = newPath();
      openStores(path);
      const db = raw(path);
      expect(db.prepare('SELECT version FROM schema_version').all()).toEqual([{ version: 4 }]);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
        ({ name }) => name,
      );
      expect(tables).toEqual([
        'approval_holds',
        'confirmation_tokens',
        'idempotency_keys',
        'invocation_observations',
        'invocation_reservations',
        'invocation_runs',
        'rate_limit_buckets',
        'schema_version',
        'sqlite_sequence',
        'verification_records',
      ]);
      db.close();
    });

    it('reopens an existing file with everything it held and migrates nothing twice', () => {
      const path = newPath();
      const first = SqliteStores.open(path, { sweepIntervalMs: 0 });
      const { token } = first.confirmation.create('delete_note', { id: 42 }, 'delete_note(id=42)', BINDING);
      first.rateLimiter.consume('web:alice:search', 4, 600, 10);
      first.history.startRun('run-1');
      first.close();
      const second = openStores(path);
      expect(second.confirmation.consume(token, 'delete_note', BINDING)).toEqual({ id: 42 });
      expect(second.rateLimiter.getUsage('web:alice:search')).toBe(4);
      expect(second.history.load('run-1')?.complete).toBe(true);
      const db = raw(path);
      expect(db.prepare('SELECT version FROM schema_version').all()).toEqual([{ version: 4 }]);
      db.close();
    });

    it('migrates a file at schema version 1 to version 4, keeping what it held', () => {
      const path = newPath();
      const first = SqliteStores.open(path, { sweepIntervalMs: 0 });
      const { token } = first.confirmation.create('delete_note', { id: 42 }, 'delete_note(id=42)', BINDING);
      first.close();
      const db = raw(path);
      db.exec('DROP TABLE approval_holds; DROP TABLE idempotency_keys; DROP TABLE invocation_reservations');
      db.prepare('UPDATE schema_version SET version = 1').run();
      db.close();
      const second = openStores(path);
      expect(second.confirmation.consume(token, 'delete_note', BINDING)).toEqual({ id: 42 });
      expect(second.approval.get('a'.repeat(32))).toBeNull();
      expect(second.history.reserve('run-1', { tool: 'delete_note', target: null }, 60_000).history.complete).toBe(false);
      const check = raw(path);
      expect(check.prepare('SELECT version FROM schema_version').all()).toEqual([{ version: 4 }]);
      check.close();
    });

    it('refuses a file written by a newer schema, naming the database and the versions', () => {
      const path = newPath();
      openStores(path).close();
      const db = raw(path);
      db.prepare('UPDATE schema_version SET version = 99').run();
      db.close();
      const error = storeErrorOf(() => SqliteStores.open(path));
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'database', failure: 'schema' });
      expect(error.message).toContain('schema version 99');
    });

    it('refuses a file that is not a SQLite database as an engine failure of the database', () => {
      const path = newPath();
      writeFileSync(path, 'this is not a database, just text that is long enough to have a header '.repeat(20));
      expect(storeErrorOf(() => SqliteStores.open(path))).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        store: 'database',
        failure: 'engine',
      });
    });

    it('throws INVALID_ARGUMENT for an option out of range, before touching the file', () => {
      expect(() => SqliteStores.open(newPath(), { confirmationTtlSeconds: 0 })).toThrow(MilpaError);
      expect(() => SqliteStores.open(newPath(), { sweepLimit: 1.5 })).toThrow(/sweepLimit must be a whole number of at least 1, got 1.5/);
      expect(() => SqliteStores.open('')).toThrow(/needs the path of a database file/);
    });
  });

  describe('close', () => {
    it('makes every store throw a closed failure naming it', () => {
      const stores = openStores();
      stores.close();
      stores.close();
      expect(storeErrorOf(() => stores.confirmation.consume('0'.repeat(32), 'delete_note', BINDING))).toMatchObject({
        store: 'confirmation',
        failure: 'closed',
        code: 'STORE_UNAVAILABLE',
      });
      expect(storeErrorOf(() => stores.rateLimiter.consume('k', 1, 60, 10))).toMatchObject({ store: 'rate_limit', failure: 'closed' });
      expect(storeErrorOf(() => stores.verification.get('v'))).toMatchObject({ store: 'verification', failure: 'closed' });
      expect(storeErrorOf(() => stores.history.load('run'))).toMatchObject({ store: 'history', failure: 'closed' });
      expect(storeErrorOf(() => stores.sweep())).toMatchObject({ failure: 'closed' });
      expect(storeErrorOf(() => stores.rateLimiter.consume('k', 1, 60, 10)).message).toBe('The SQLite rate limiter is closed.');
    });
  });

  describe('malformed rows', () => {
    it('refuses to redeem a token whose stored arguments are not JSON, and says which store', () => {
      const path = newPath();
      const stores = openStores(path);
      const { token } = stores.confirmation.create('delete_note', { id: 42 }, 'delete_note(id=42)', BINDING);
      const db = raw(path);
      db.prepare("UPDATE confirmation_tokens SET args_json = '{not json'").run();
      db.close();
      const error = storeErrorOf(() => stores.confirmation.consume(token, 'delete_note', BINDING));
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'confirmation', failure: 'malformed' });
      expect(error.message).toMatch(/^The SQLite confirmation store found a malformed row/);
    });

    it('refuses to spend from a bucket whose usage is not a number', () => {
      const path = newPath();
      const stores = openStores(path);
      stores.rateLimiter.consume('web:alice:search', 1, 60, 10);
      const db = raw(path);
      db.prepare("UPDATE rate_limit_buckets SET used = 'lots'").run();
      db.close();
      expect(storeErrorOf(() => stores.rateLimiter.consume('web:alice:search', 1, 60, 10))).toMatchObject({
        store: 'rate_limit',
        failure: 'malformed',
      });
      expect(storeErrorOf(() => stores.rateLimiter.getUsage('web:alice:search'))).toMatchObject({
        store: 'rate_limit',
        failure: 'malformed',
      });
    });

    it('refuses to read or decide a verification record that is not one', () => {
      const path = newPath();
      const stores = openStores(path);
      stores.verification.open(pendingRecord('v-1', Date.now()));
      const db = raw(path);
      db.prepare(`UPDATE verification_records SET record_json = json_set(record_json, '$.request.policy', 'everyone')`).run();
      db.close();
      expect(storeErrorOf(() => stores.verification.get('v-1'))).toMatchObject({ store: 'verification', failure: 'malformed' });
      const decision = {
        kind: 'grant',
        principal: 'user:b',
        reason: null,
        at: new Date(),
        subject: null,
        result: VerificationResult.pass(),
      } as const;
      expect(storeErrorOf(() => stores.verification.decide('v-1', decision))).toMatchObject({
        store: 'verification',
        failure: 'malformed',
      });
    });

    it('refuses to load a history holding an outcome it does not know', () => {
      const path = newPath();
      const stores = openStores(path);
      stores.history.startRun('run-1');
      stores.history.append('run-1', { tool: 'delete_note', outcome: 'executed', target: null });
      const db = raw(path);
      db.prepare("UPDATE invocation_observations SET outcome = 'exploded'").run();
      db.close();
      expect(storeErrorOf(() => stores.history.load('run-1'))).toMatchObject({ store: 'history', failure: 'malformed' });
    });

    it('refuses to answer a place when a call in flight has a mistyped target', () => {
      const path = newPath();
      const stores = openStores(path);
      stores.history.startRun('run-1');
      stores.history.reserve('run-1', { tool: 'delete_note', target: { kind: 'note', id: '1' } }, 60_000);
      const db = raw(path);
      db.prepare('UPDATE invocation_reservations SET target_id = NULL').run();
      db.close();
      expect(storeErrorOf(() => stores.history.reserve('run-1', { tool: 'delete_note', target: null }, 60_000))).toMatchObject({
        store: 'history',
        failure: 'malformed',
      });
      expect(rowCount(path, 'invocation_reservations')).toBe(1);
    });
  });

  describe('approval', () => {
    it('upgrades a file at schema version 3: held and used calls stay, unsettled, and can be settled', () => {
      const path = newPath();
      const now = Date.now();
      const first = SqliteStores.open(path, { sweepIntervalMs: 0 });
      const waiting = heldCall('d'.repeat(32), now);
      const used = heldCall('e'.repeat(32), now);
      first.approval.open(waiting);
      first.approval.open(used);
      const claim = { toolName: 'delete_note', principal: 'agent:7', channel: 'mcp', runId: null, at: new Date(now + 1_000) };
      expect(first.approval.redeem(used.approvalId, claim).status).toBe('redeemed');
      first.close();
      const db = raw(path);
      db.exec(
        'ALTER TABLE approval_holds DROP COLUMN settled_outcome; ALTER TABLE approval_holds DROP COLUMN settled_code; ' +
          'ALTER TABLE approval_holds DROP COLUMN settled_at',
      );
      db.prepare('UPDATE schema_version SET version = 3').run();
      db.close();
      const second = openStores(path);
      expect(second.approval.get(waiting.approvalId)).toMatchObject({ redeemedAt: null, settlement: null });
      expect(second.approval.get(used.approvalId)?.settlement).toBeNull();
      const settlement = { outcome: 'failed', code: 'FORBIDDEN', at: new Date(now + 2_000) } as const;
      expect(second.approval.settle(used.approvalId, settlement)).toBe(true);
      expect(second.approval.settle(waiting.approvalId, settlement)).toBe(false);
      expect(second.approval.get(used.approvalId)?.settlement).toEqual(settlement);
      const check = raw(path);
      expect(check.prepare('SELECT version FROM schema_version').all()).toEqual([{ version: 4 }]);
      check.close();
    });

    it('refuses a malformed settlement, and a settlement row another writer damaged', () => {
      const path = newPath();
      const stores = openStores(path);
      const now = Date.now();
      const held = heldCall('f'.repeat(32), now);
      stores.approval.open(held);
      stores.approval.redeem(held.approvalId, {
        toolName: 'delete_note',
        principal: 'agent:7',
        channel: 'mcp',
        runId: null,
        at: new Date(),
      });
      const bad = { outcome: 'ran', code: null, at: new Date() } as unknown as Parameters<typeof stores.approval.settle>[1];
      expect(() => stores.approval.settle(held.approvalId, bad)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      expect(stores.approval.get(held.approvalId)?.settlement).toBeNull();
      const db = raw(path);
      db.prepare("UPDATE approval_holds SET settled_outcome = 'exploded'").run();
      db.close();
      expect(storeErrorOf(() => stores.approval.get(held.approvalId))).toMatchObject({ store: 'approval', failure: 'malformed' });
    });

    it('refuses to store a held call whose arguments are not JSON data, or one already redeemed, and stores nothing', () => {
      const stores = openStores();
      const now = Date.now();
      expect(() => stores.approval.open(heldCall('a'.repeat(32), now, { at: new Date() }))).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      expect(() => stores.approval.open({ ...heldCall('b'.repeat(32), now), redeemedAt: new Date() })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      expect(stores.approval.get('a'.repeat(32))).toBeNull();
      expect(stores.approval.get('b'.repeat(32))).toBeNull();
    });

    it('refuses to read or redeem a held call whose row is malformed, and redeems nothing', () => {
      const path = newPath();
      const stores = openStores(path);
      const held = heldCall('c'.repeat(32), Date.now());
      stores.approval.open(held);
      const db = raw(path);
      db.prepare("UPDATE approval_holds SET args_json = '[1]'").run();
      db.close();
      expect(storeErrorOf(() => stores.approval.get(held.approvalId))).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        store: 'approval',
        failure: 'malformed',
      });
      const claim = { toolName: 'delete_note', principal: 'agent:7', channel: 'mcp', runId: null, at: new Date() };
      expect(storeErrorOf(() => stores.approval.redeem(held.approvalId, claim))).toMatchObject({ store: 'approval', failure: 'malformed' });
      const check = raw(path);
      expect(check.prepare('SELECT redeemed_at FROM approval_holds').all()).toEqual([{ redeemed_at: null }]);
      check.close();
    });

    it('fails as closed after close, naming the approval store', () => {
      const stores = openStores();
      stores.close();
      expect(storeErrorOf(() => stores.approval.get('d'.repeat(32)))).toMatchObject({ store: 'approval', failure: 'closed' });
    });

    it('keeps a used call for the retention so a late resume reads used, then forgets and sweeps it', () => {
      const clock = { now: Date.now() };
      const path = newPath();
      const stores = openStores(path, { approvalRetentionMs: 1_000, now: () => clock.now });
      const held = heldCall('e'.repeat(32), clock.now);
      stores.approval.open(held);
      const claim = { toolName: 'delete_note', principal: 'agent:7', channel: 'mcp', runId: null, at: new Date(clock.now) };
      expect(stores.approval.redeem(held.approvalId, claim).status).toBe('redeemed');
      clock.now += 1_000;
      expect(stores.approval.redeem(held.approvalId, { ...claim, at: new Date(clock.now) })).toMatchObject({
        status: 'refused',
        refusal: 'used',
      });
      clock.now += 1;
      expect(stores.approval.get(held.approvalId)).toBeNull();
      expect(stores.sweep()).toBe(1);
      const db = raw(path);
      expect(db.prepare('SELECT COUNT(*) AS n FROM approval_holds').get()).toEqual({ n: 0 });
      db.close();
      // A forgotten id is free again.
      expect(stores.approval.open(heldCall(held.approvalId, clock.now))).toBe(true);
    });
  });

  describe('idempotency', () => {
    const claim = (key: string, at: number) => ({
      key,
      toolName: 'create_invoice',
      principal: 'agent:7',
      argumentsDigest: 'digest',
      owner: 'owner-1',
      at: new Date(at),
      leaseMs: 60_000,
      retentionMs: 60_000,
    });

    it('refuses to keep a result that is not JSON data, and the key stays in flight', () => {
      const stores = openStores();
      const now = Date.now();
      stores.idempotency.begin(claim('k1', now));
      const result = { success: true, data: { at: new Date() }, message: null, error: null, meta: {} };
      expect(() => stores.idempotency.complete('k1', 'owner-1', result, new Date(now), 60_000)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      expect(stores.idempotency.get('k1')?.state).toBe('in_flight');
    });

    it('refuses to answer from a key whose row is malformed, naming the idempotency store', () => {
      const path = newPath();
      const stores = openStores(path);
      const now = Date.now();
      stores.idempotency.begin(claim('k2', now));
      const db = raw(path);
      db.prepare(`UPDATE idempotency_keys SET record_json = json_set(record_json, '$.state', 'exploded')`).run();
      db.close();
      expect(storeErrorOf(() => stores.idempotency.begin(claim('k2', now + 1)))).toMatchObject({
        code: 'STORE_UNAVAILABLE',
        store: 'idempotency',
        failure: 'malformed',
      });
      expect(storeErrorOf(() => stores.idempotency.get('k2'))).toMatchObject({ store: 'idempotency', failure: 'malformed' });
    });

    it('sweeps forgotten keys', () => {
      const clock = { now: Date.now() };
      const path = newPath();
      const stores = openStores(path, { now: () => clock.now });
      stores.idempotency.begin(claim('k3', clock.now));
      clock.now += 120_001;
      expect(stores.idempotency.get('k3')).toBeNull();
      expect(stores.sweep()).toBe(1);
    });
  });

  describe('SQLite failures', () => {
    it('fails a call as an engine failure when another connection holds the write lock past the busy timeout', () => {
      const path = newPath();
      const stores = openStores(path, { busyTimeoutMs: 0 });
      const holder = raw(path);
      holder.prepare('BEGIN IMMEDIATE').run();
      try {
        const error = storeErrorOf(() => stores.rateLimiter.consume('web:alice:search', 1, 60, 10));
        expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'rate_limit', failure: 'engine' });
        expect(error.message).toMatch(/^The SQLite rate limiter failed: database is locked/);
      } finally {
        holder.prepare('ROLLBACK').run();
        holder.close();
      }
      expect(stores.rateLimiter.consume('web:alice:search', 1, 60, 10).allowed).toBe(true);
    });
  });

  describe('confirmation', () => {
    it('refuses arguments that are not plain JSON data with INVALID_ARGUMENT and stores nothing', () => {
      const path = newPath();
      const stores = openStores(path);
      expect(() => stores.confirmation.create('delete_note', { when: new Date() }, 's', BINDING)).toThrow(
        /Confirmation args must be plain JSON data: \$\.when is not a plain object or array/,
      );
      expect(() => stores.confirmation.create('delete_note', { size: 10n } as never, 's', BINDING)).toThrow(/\$\.size is a bigint/);
      const db = raw(path);
      expect(db.prepare('SELECT COUNT(*) AS n FROM confirmation_tokens').get()).toEqual({ n: 0 });
      db.close();
    });
  });

  describe('history', () => {
    it('drops the oldest observation past maxObservationsPerRun and marks the run incomplete', () => {
      const stores = openStores(newPath(), { maxObservationsPerRun: 2 });
      stores.history.startRun('run-1');
      for (const tool of ['a', 'b', 'c']) stores.history.append('run-1', { tool, outcome: 'executed', target: null });
      const history = stores.history.load('run-1');
      expect(history?.observations.map((observation) => observation.tool)).toEqual(['b', 'c']);
      expect(history?.complete).toBe(false);
    });

    it('forgets a run idle for its TTL, and a fresh start under its id begins empty', () => {
      const clock = { now: Date.now() };
      const stores = openStores(newPath(), { historyIdleTtlSeconds: 60, now: () => clock.now });
      stores.history.startRun('run-1');
      stores.history.append('run-1', { tool: 'a', outcome: 'executed', target: null });
      clock.now += 59_000;
      expect(stores.history.load('run-1')?.length).toBe(1);
      clock.now += 60_000;
      expect(stores.history.load('run-1')).toBeNull();
      expect(stores.history.startRun('run-1')).toBe(true);
      expect(stores.history.load('run-1')?.observations).toEqual([]);
    });

    it('refuses a lease that is not a whole number of milliseconds, taking no place', () => {
      const path = newPath();
      const stores = openStores(path);
      stores.history.startRun('run-1');
      for (const lease of [0, -5, 1.5, Number.NaN, '60' as unknown as number]) {
        expect(() => stores.history.reserve('run-1', { tool: 'a', target: null }, lease)).toThrow(/leaseMs must be a whole number/);
      }
      expect(rowCount(path, 'invocation_reservations')).toBe(0);
    });

    it('never gives a new place the id of a place dropped before it, so a late settle cannot release it', () => {
      const clock = { now: Date.now() };
      const stores = openStores(newPath(), { now: () => clock.now });
      stores.history.startRun('run-1');
      const stale = stores.history.reserve('run-1', { tool: 'a', target: null }, 1_000);
      clock.now += 2_000;
      const fresh = stores.history.reserve('run-1', { tool: 'b', target: null }, 60_000);
      expect(fresh.id).not.toBe(stale.id);
      stores.history.settle('run-1', stale.id, { tool: 'a', outcome: 'executed', target: null });
      expect(stores.history.load('run-1')?.inFlight).toEqual([{ tool: 'b', target: null }]);
    });
  });

  describe('verification', () => {
    it('forgets a resolved record once its retention has passed, freeing its id', () => {
      const clock = { now: Date.now() };
      const stores = openStores(newPath(), { verificationRetentionMs: 1_000, now: () => clock.now });
      stores.verification.open(pendingRecord('v-1', clock.now));
      stores.verification.decide('v-1', {
        kind: 'grant',
        principal: 'user:b',
        reason: null,
        at: new Date(clock.now),
        subject: null,
        result: VerificationResult.pass(),
      });
      clock.now += 1_000;
      expect(stores.verification.get('v-1')?.result?.status).toBe('passed');
      clock.now += 1;
      expect(stores.verification.get('v-1')).toBeNull();
      expect(stores.verification.open(pendingRecord('v-1', clock.now))).toBe(true);
    });
  });

  describe('sweep', () => {
    it('removes at most sweepLimit expired rows per table and keeps live ones', () => {
      const clock = { now: Date.now() };
      const path = newPath();
      const stores = openStores(path, { sweepLimit: 2, confirmationTtlSeconds: 10, now: () => clock.now });
      for (let index = 0; index < 3; index += 1) stores.confirmation.create('t', { index }, 's', BINDING);
      stores.rateLimiter.consume('k', 1, 1, 10);
      clock.now += 11_000;
      const { token: live } = stores.confirmation.create('t', { live: true }, 's', BINDING);
      expect(stores.sweep()).toBe(3);
      expect(rowCount(path, 'confirmation_tokens')).toBe(2);
      expect(stores.sweep()).toBe(1);
      expect(rowCount(path, 'confirmation_tokens')).toBe(1);
      expect(rowCount(path, 'rate_limit_buckets')).toBe(0);
      expect(stores.confirmation.consume(live, 't', BINDING)).toEqual({ live: true });
    });

    it('removes idle runs with their observations and places', () => {
      const clock = { now: Date.now() };
      const path = newPath();
      const stores = openStores(path, { historyIdleTtlSeconds: 1, now: () => clock.now });
      stores.history.startRun('run-1');
      stores.history.append('run-1', { tool: 'a', outcome: 'executed', target: null });
      clock.now += 1_000;
      expect(stores.sweep()).toBe(1);
      stores.history.reserve('run-1', { tool: 'b', target: null }, 600_000);
      clock.now += 1_000;
      expect(stores.sweep()).toBe(1);
      expect(rowCount(path, 'invocation_runs')).toBe(0);
      expect(rowCount(path, 'invocation_observations')).toBe(0);
      expect(rowCount(path, 'invocation_reservations')).toBe(0);
    });

    it('runs on its timer every sweepIntervalMs', () => {
      vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
      try {
        const clock = { now: Date.now() };
        const path = newPath();
        const stores = openStores(path, { sweepIntervalMs: 1_000, confirmationTtlSeconds: 1, now: () => clock.now });
        stores.confirmation.create('t', {}, 's', BINDING);
        clock.now += 2_000;
        expect(rowCount(path, 'confirmation_tokens')).toBe(1);
        vi.advanceTimersByTime(1_000);
        expect(rowCount(path, 'confirmation_tokens')).toBe(0);
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
