import {
  InvocationHistory,
  InvocationOutcome,
  MilpaError,
  type InFlightInvocation,
  type InvocationHistoryStore,
  type InvocationObservation,
  type InvocationReservation,
} from '@milpa/core';
import { malformedRow, type SqliteConnection, type StoreDatabase } from '../database/store-database.js';

interface RunRow {
  readonly complete: unknown;
  readonly touched_at: unknown;
}

interface ObservationRow {
  readonly tool: unknown;
  readonly outcome: unknown;
  readonly target_kind: unknown;
  readonly target_id: unknown;
}

interface ReservationRow {
  readonly tool: unknown;
  readonly target_kind: unknown;
  readonly target_id: unknown;
}

function toTarget(kind: unknown, id: unknown): InFlightInvocation['target'] | undefined {
  if (kind === null && id === null) return null;
  return typeof kind === 'string' && typeof id === 'string' ? { kind, id } : undefined;
}

function toInFlight(row: ReservationRow): InFlightInvocation {
  const target = toTarget(row.target_kind, row.target_id);
  if (typeof row.tool !== 'string' || target === undefined) {
    throw malformedRow('history', 'a reservation with missing or mistyped columns');
  }
  return { tool: row.tool, target };
}

function toObservation(row: ObservationRow): InvocationObservation {
  const { tool, outcome, target_kind: kind, target_id: id } = row;
  const target = kind === null && id === null ? null : typeof kind === 'string' && typeof id === 'string' ? { kind, id } : undefined;
  if (typeof tool !== 'string' || !InvocationOutcome.isInvocationOutcome(outcome) || target === undefined) {
    throw malformedRow('history', 'an invocation observation with missing or mistyped columns');
  }
  return { tool, outcome, target };
}

/**
 * The {@link InvocationHistoryStore} over the `invocation_runs` and `invocation_observations`
 * tables of a SQLite file: each run's history (tool, outcome and target of every call, never
 * arguments or results) survives a restart and is shared by every process that opens the file,
 * so a run suspended in one process resumes in another with its history complete.
 *
 * Each `append` writes in one `BEGIN IMMEDIATE` transaction, so overlapping appends, across
 * processes too, lose nothing and keep the order they committed in. `reserve` reads the run and
 * takes the next place in the `invocation_reservations` table in one such transaction, which holds
 * the file's write lock from the first read: the calls of every process sharing the file take
 * their places one after another, and each gets the history up to its own. `settle` deletes the
 * place and appends the observation in one transaction too. A place past its lease is deleted by
 * the next `load`, `reserve` or `settle` of its run, which marks the run incomplete. A run keeps at most
 * `maxObservationsPerRun` observations (past it the oldest are dropped and the run becomes
 * incomplete), and a run untouched for `idleTtlSeconds` is forgotten: it loads as unknown, which
 * rules that need a complete history refuse. Idle runs are swept in bounded steps by
 * {@link SqliteStores}.
 *
 * Get one from {@link SqliteStores.open}.
 *
 * @example
 * const stores = SqliteStores.open('/var/lib/my-agent/milpa.db');
 * const registry = new ToolRegistry({ historyStore: stores.history });
 */
export class SqliteInvocationHistoryStore implements InvocationHistoryStore {
  readonly #database: StoreDatabase;
  readonly #maxObservations: number;
  readonly #idleMs: number;

  /** @internal Use {@link SqliteStores.open}. */
  constructor(database: StoreDatabase, maxObservationsPerRun: number, idleTtlSeconds: number) {
    this.#database = database;
    this.#maxObservations = maxObservationsPerRun;
    this.#idleMs = idleTtlSeconds * 1000;
  }

  /**
   * Opens `runId` with a complete, empty history; false (and no change) when the run is known.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  startRun(runId: string): boolean {
    return this.#database.transaction('history', (db) => {
      const now = this.#database.now();
      if (
        this.#liveRun(
          db.prepare('SELECT complete, touched_at FROM invocation_runs WHERE run_id = ?').get(runId) as RunRow | undefined,
          now,
        ) !== null
      ) {
        db.prepare('UPDATE invocation_runs SET touched_at = ? WHERE run_id = ?').run(now, runId);
        return false;
      }
      // An idle run's leftovers go first: the fresh run starts empty.
      db.prepare('DELETE FROM invocation_observations WHERE run_id = ?').run(runId);
      db.prepare('INSERT OR REPLACE INTO invocation_runs (run_id, complete, touched_at) VALUES (?, 1, ?)').run(runId, now);
      return true;
    });
  }

  /**
   * The run's history, or null when the run is unknown or idle past its TTL.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails or a row is malformed.
   */
  load(runId: string): InvocationHistory | null {
    return this.#database.transaction('history', (db) => {
      const now = this.#database.now();
      const complete = this.#liveRun(
        db.prepare('SELECT complete, touched_at FROM invocation_runs WHERE run_id = ?').get(runId) as RunRow | undefined,
        now,
      );
      if (complete === null) return null;
      db.prepare('UPDATE invocation_runs SET touched_at = ? WHERE run_id = ?').run(now, runId);
      return this.#history(db, runId, this.#dropExpired(db, runId, now) && complete);
    });
  }

  /**
   * Takes the next place in the run for `call` (its tool and target), held for `leaseMs`, and
   * answers it with the history up to that place, in one `BEGIN IMMEDIATE` transaction. An
   * unknown run is recorded as incomplete.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `leaseMs` is not a whole number >= 1 (nothing changes);
   *   SqliteStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  reserve(runId: string, call: InFlightInvocation, leaseMs: number): InvocationReservation {
    if (typeof leaseMs !== 'number' || !Number.isSafeInteger(leaseMs) || leaseMs < 1) {
      throw new MilpaError(`SqliteInvocationHistoryStore.reserve: leaseMs must be a whole number >= 1, got ${String(leaseMs)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    const target = call.target;
    return this.#database.transaction('history', (db) => {
      const now = this.#database.now();
      const complete = this.#openRun(db, runId, now);
      const history = this.#history(db, runId, this.#dropExpired(db, runId, now) && complete);
      const { lastInsertRowid } = db
        .prepare('INSERT INTO invocation_reservations (run_id, tool, target_kind, target_id, expires_at) VALUES (?, ?, ?, ?, ?)')
        .run(runId, call.tool, target?.kind ?? null, target?.id ?? null, now + leaseMs);
      return Object.freeze({ id: String(lastInsertRowid), history });
    });
  }

  /**
   * Deletes place `reservationId` and appends `observation`, in one transaction; a place already
   * dropped still gets its observation.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails; nothing changes then.
   */
  settle(runId: string, reservationId: string, observation: InvocationObservation): void {
    this.#database.transaction('history', (db) => {
      db.prepare('DELETE FROM invocation_reservations WHERE run_id = ? AND id = ?').run(runId, reservationId);
      this.#append(db, runId, observation);
    });
  }

  /** The run's observations and places, as a history that is `complete` or not. */
  #history(db: SqliteConnection, runId: string, complete: boolean): InvocationHistory {
    const rows = db
      .prepare('SELECT tool, outcome, target_kind, target_id FROM invocation_observations WHERE run_id = ? ORDER BY seq')
      .all(runId) as ObservationRow[];
    const places = db
      .prepare('SELECT tool, target_kind, target_id FROM invocation_reservations WHERE run_id = ? ORDER BY id')
      .all(runId) as ReservationRow[];
    return new InvocationHistory(rows.map(toObservation), complete, places.map(toInFlight));
  }

  /** Deletes the run's places past their lease, marking the run incomplete; false when it did. */
  #dropExpired(db: SqliteConnection, runId: string, now: number): boolean {
    const { changes } = db.prepare('DELETE FROM invocation_reservations WHERE run_id = ? AND expires_at <= ?').run(runId, now);
    if (changes === 0) return true;
    db.prepare('UPDATE invocation_runs SET complete = 0 WHERE run_id = ?').run(runId);
    return false;
  }

  /** Touches the live run and answers whether it is complete, or records an unknown run as a new incomplete one. */
  #openRun(db: SqliteConnection, runId: string, now: number): boolean {
    const complete = this.#liveRun(
      db.prepare('SELECT complete, touched_at FROM invocation_runs WHERE run_id = ?').get(runId) as RunRow | undefined,
      now,
    );
    if (complete !== null) {
      db.prepare('UPDATE invocation_runs SET touched_at = ? WHERE run_id = ?').run(now, runId);
      return complete;
    }
    db.prepare('DELETE FROM invocation_observations WHERE run_id = ?').run(runId);
    db.prepare('DELETE FROM invocation_reservations WHERE run_id = ?').run(runId);
    db.prepare('INSERT OR REPLACE INTO invocation_runs (run_id, complete, touched_at) VALUES (?, 0, ?)').run(runId, now);
    return false;
  }

  /**
   * Appends one observation (its tool, outcome and target only); an unknown run is recorded as
   * incomplete.
   *
   * @throws SqliteStoreError `STORE_UNAVAILABLE` when the database fails; nothing is recorded then.
   */
  append(runId: string, observation: InvocationObservation): void {
    this.#database.transaction('history', (db) => this.#append(db, runId, observation));
  }

  #append(db: SqliteConnection, runId: string, observation: InvocationObservation): void {
    const target = observation.target;
    const now = this.#database.now();
    this.#openRun(db, runId, now);
    this.#dropExpired(db, runId, now);
    db.prepare(
      `INSERT INTO invocation_observations (run_id, seq, tool, outcome, target_kind, target_id)
       VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM invocation_observations WHERE run_id = ?), ?, ?, ?, ?)`,
    ).run(runId, runId, observation.tool, observation.outcome, target?.kind ?? null, target?.id ?? null);
    const { count } = db.prepare('SELECT COUNT(*) AS count FROM invocation_observations WHERE run_id = ?').get(runId) as {
      count: number;
    };
    if (count > this.#maxObservations) {
      db.prepare(
        'DELETE FROM invocation_observations WHERE run_id = ? AND seq IN (SELECT ' +
          'seq FROM invocation_observations WHERE run_id = ? ORDER BY seq LIMIT ?)',
      ).run(runId, runId, count - this.#maxObservations);
      db.prepare('UPDATE invocation_runs SET complete = 0 WHERE run_id = ?').run(runId);
    }
  }

  /** Whether a live run is complete; null when there is no run or it has been idle too long. */
  #liveRun(row: RunRow | undefined, now: number): boolean | null {
    if (row === undefined) return null;
    const { complete, touched_at: touchedAt } = row;
    if ((complete !== 0 && complete !== 1) || typeof touchedAt !== 'number')
      throw malformedRow('history', 'an invocation run with missing or mistyped columns');
    return now - touchedAt >= this.#idleMs ? null : complete === 1;
  }
}
