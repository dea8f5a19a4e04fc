import {
  InvocationHistory,
  InvocationOutcome,
  MilpaError,
  type InFlightInvocation,
  type InvocationHistoryStore,
  type InvocationObservation,
  type InvocationReservation,
} from '@milpa/core';
import { malformedRow, type RunStatement, type StoreDatabase } from '../database/store-database.js';
import { timeOf } from '../database/time-column.js';

type Row = Record<string, unknown>;

/** A live run, its row locked by the transaction. */
interface RunState {
  readonly complete: boolean;
  readonly firstSeq: number;
  readonly nextSeq: number;
}

function toTarget(kind: unknown, id: unknown): InFlightInvocation['target'] | undefined {
  if (kind === null && id === null) return null;
  return typeof kind === 'string' && typeof id === 'string' ? { kind, id } : undefined;
}

function toInFlight(row: Row): InFlightInvocation {
  const target = toTarget(row['target_kind'], row['target_id']);
  if (typeof row['tool'] !== 'string' || target === undefined)
    throw malformedRow('history', 'a reservation with missing or mistyped columns');
  return { tool: row['tool'], target };
}

function toObservation(row: Row): InvocationObservation {
  const { tool, outcome } = row;
  const target = toTarget(row['target_kind'], row['target_id']);
  if (typeof tool !== 'string' || !InvocationOutcome.isInvocationOutcome(outcome) || target === undefined) {
    throw malformedRow('history', 'an invocation observation with missing or mistyped columns');
  }
  return { tool, outcome, target };
}

/**
 * The {@link InvocationHistoryStore} over the `invocation_runs`, `invocation_observations` and
 * `invocation_reservations` tables: each run's history (tool, outcome and target of every call,
 * never arguments or results) survives a restart and is shared by every process that uses the
 * database, so a run suspended in one process resumes in another with its history complete.
 *
 * Every operation locks the run's row (`SELECT … FOR UPDATE`) first and does the rest in the same
 * transaction; an unknown run's row is inserted with `ON CONFLICT DO NOTHING`, and when another
 * process inserted it first, that row is locked instead. So the calls of every process take their
 * places in a run one after another: `reserve` reads the history and takes the next place in one
 * transaction, and each call gets the history up to its own place; `settle` deletes the place and
 * appends the observation in one transaction. A place past its lease is deleted by the next
 * `load`, `reserve`, `append` or `settle` of its run, which marks the run incomplete. A run keeps
 * at most `maxObservationsPerRun` observations (past it the oldest are dropped and the run becomes
 * incomplete), and a run untouched for `idleTtlSeconds` is forgotten: it loads as unknown, which
 * rules that need a complete history refuse. Idle runs are swept in bounded steps by
 * {@link PostgresStores}.
 *
 * Get one from {@link PostgresStores.connect}.
 *
 * @example
 * const stores = await PostgresStores.connect({ connectionString: 'postgres://127.0.0.1:5432/app' });
 * const registry = new ToolRegistry({ historyStore: stores.history });
 */
export class PostgresInvocationHistoryStore implements InvocationHistoryStore {
  readonly #database: StoreDatabase;
  readonly #maxObservations: number;
  readonly #idleMs: number;
  readonly #runs: string;
  readonly #observations: string;
  readonly #reservations: string;

  /** @internal Use {@link PostgresStores.connect}. */
  constructor(database: StoreDatabase, maxObservationsPerRun: number, idleTtlSeconds: number) {
    this.#database = database;
    this.#maxObservations = maxObservationsPerRun;
    this.#idleMs = idleTtlSeconds * 1000;
    this.#runs = database.table('invocation_runs');
    this.#observations = database.table('invocation_observations');
    this.#reservations = database.table('invocation_reservations');
  }

  /**
   * Opens `runId` with a complete, empty history; false (and no change) when the run is known.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  async startRun(runId: string): Promise<boolean> {
    return this.#database.transaction('history', async (run) => {
      for (;;) {
        const now = this.#database.now();
        const row = await this.#lockRun(run, runId);
        if (row !== undefined && this.#live(row, now) !== null) {
          await run(`UPDATE ${this.#runs} SET touched_at = $2 WHERE run_id = $1`, [runId, now]);
          return false;
        }
        if (row !== undefined) {
          // An idle run's leftovers go first: the fresh run starts empty.
          await this.#restart(run, runId, true, now);
          return true;
        }
        if (await this.#insertRun(run, runId, true, now)) return true;
      }
    });
  }

  /**
   * The run's history, or null when the run is unknown or idle past its TTL.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails or a row is malformed.
   */
  async load(runId: string): Promise<InvocationHistory | null> {
    return this.#database.transaction('history', async (run) => {
      const now = this.#database.now();
      const row = await this.#lockRun(run, runId);
      const live = row === undefined ? null : this.#live(row, now);
      if (live === null) return null;
      await run(`UPDATE ${this.#runs} SET touched_at = $2 WHERE run_id = $1`, [runId, now]);
      return this.#history(run, runId, (await this.#dropExpired(run, runId, now)) && live.complete);
    });
  }

  /**
   * Takes the next place in the run for `call` (its tool and target), held for `leaseMs`, and
   * answers it with the history up to that place, in one transaction holding the run's row lock.
   * An unknown run is recorded as incomplete.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `leaseMs` is not a whole number >= 1 (nothing changes);
   *   PostgresStoreError `STORE_UNAVAILABLE` when the database fails.
   */
  async reserve(runId: string, call: InFlightInvocation, leaseMs: number): Promise<InvocationReservation> {
    if (typeof leaseMs !== 'number' || !Number.isSafeInteger(leaseMs) || leaseMs < 1) {
      throw new MilpaError(`PostgresInvocationHistoryStore.reserve: leaseMs must be a whole number >= 1, got ${String(leaseMs)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    const target = call.target;
    return this.#database.transaction('history', async (run) => {
      const now = this.#database.now();
      const state = await this.#openRun(run, runId, now);
      const history = await this.#history(run, runId, (await this.#dropExpired(run, runId, now)) && state.complete);
      const { rows } = await run(
        `INSERT INTO ${this.#reservations} (run_id, tool, target_kind, target_id, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [runId, call.tool, target?.kind ?? null, target?.id ?? null, now + leaseMs],
      );
      return Object.freeze({ id: String(rows[0]?.['id']), history });
    });
  }

  /**
   * Deletes place `reservationId` and appends `observation`, in one transaction; a place already
   * dropped still gets its observation.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails; nothing changes then.
   */
  async settle(runId: string, reservationId: string, observation: InvocationObservation): Promise<void> {
    await this.#database.transaction('history', async (run) => {
      const now = this.#database.now();
      const state = await this.#openRun(run, runId, now);
      // Only ids this store gave out are numbers; any other id names no place.
      if (typeof reservationId === 'string' && /^\d{1,18}$/.test(reservationId)) {
        await run(`DELETE FROM ${this.#reservations} WHERE run_id = $1 AND id = $2`, [runId, reservationId]);
      }
      await this.#append(run, runId, state, observation, now);
    });
  }

  /**
   * Appends one observation (its tool, outcome and target only); an unknown run is recorded as
   * incomplete.
   *
   * @throws PostgresStoreError `STORE_UNAVAILABLE` when the database fails; nothing is recorded then.
   */
  async append(runId: string, observation: InvocationObservation): Promise<void> {
    await this.#database.transaction('history', async (run) => {
      const now = this.#database.now();
      await this.#append(run, runId, await this.#openRun(run, runId, now), observation, now);
    });
  }

  async #append(run: RunStatement, runId: string, state: RunState, observation: InvocationObservation, now: number): Promise<void> {
    await this.#dropExpired(run, runId, now);
    const target = observation.target;
    await run(`INSERT INTO ${this.#observations} (run_id, seq, tool, outcome, target_kind, target_id) VALUES ($1, $2, $3, $4, $5, $6)`, [
      runId,
      state.nextSeq,
      observation.tool,
      observation.outcome,
      target?.kind ?? null,
      target?.id ?? null,
    ]);
    const nextSeq = state.nextSeq + 1;
    const firstSeq = Math.max(state.firstSeq, nextSeq - this.#maxObservations);
    if (firstSeq === state.firstSeq) {
      await run(`UPDATE ${this.#runs} SET next_seq = $2 WHERE run_id = $1`, [runId, nextSeq]);
      return;
    }
    // Past the bound the oldest observations go, and the run can no longer prove it is complete.
    await run(`DELETE FROM ${this.#observations} WHERE run_id = $1 AND seq < $2`, [runId, firstSeq]);
    await run(`UPDATE ${this.#runs} SET next_seq = $2, first_seq = $3, complete = false WHERE run_id = $1`, [runId, nextSeq, firstSeq]);
  }

  /** The run's observations and places, as a history that is `complete` or not. */
  async #history(run: RunStatement, runId: string, complete: boolean): Promise<InvocationHistory> {
    const observations = await run(
      `SELECT tool, outcome, target_kind, target_id FROM ${this.#observations} WHERE run_id = $1 ORDER BY seq`,
      [runId],
    );
    const places = await run(`SELECT tool, target_kind, target_id FROM ${this.#reservations} WHERE run_id = $1 ORDER BY id`, [runId]);
    return new InvocationHistory(observations.rows.map(toObservation), complete, places.rows.map(toInFlight));
  }

  /** Deletes the run's places past their lease, marking the run incomplete; false when it did. */
  async #dropExpired(run: RunStatement, runId: string, now: number): Promise<boolean> {
    const { rowCount } = await run(`DELETE FROM ${this.#reservations} WHERE run_id = $1 AND expires_at <= $2`, [runId, now]);
    if (rowCount === 0 || rowCount === null) return true;
    await run(`UPDATE ${this.#runs} SET complete = false WHERE run_id = $1`, [runId]);
    return false;
  }

  /** Locks the live run's row and touches it, or records an unknown or idle run as a new incomplete one (locked too). */
  async #openRun(run: RunStatement, runId: string, now: number): Promise<RunState> {
    for (;;) {
      const row = await this.#lockRun(run, runId);
      const live = row === undefined ? null : this.#live(row, now);
      if (live !== null) {
        await run(`UPDATE ${this.#runs} SET touched_at = $2 WHERE run_id = $1`, [runId, now]);
        return live;
      }
      if (row !== undefined) return this.#restart(run, runId, false, now);
      if (await this.#insertRun(run, runId, false, now)) return { complete: false, firstSeq: 1, nextSeq: 1 };
      // Another process inserted the run first (and has committed): lock its row instead.
    }
  }

  /** Empties the locked, idle run and opens it again. */
  async #restart(run: RunStatement, runId: string, complete: boolean, now: number): Promise<RunState> {
    await run(`DELETE FROM ${this.#observations} WHERE run_id = $1`, [runId]);
    await run(`DELETE FROM ${this.#reservations} WHERE run_id = $1`, [runId]);
    await run(`UPDATE ${this.#runs} SET complete = $2, touched_at = $3, first_seq = 1, next_seq = 1 WHERE run_id = $1`, [
      runId,
      complete,
      now,
    ]);
    return { complete, firstSeq: 1, nextSeq: 1 };
  }

  /** Inserts a new run's row (locked by the insert); false when another transaction inserted it first. */
  async #insertRun(run: RunStatement, runId: string, complete: boolean, now: number): Promise<boolean> {
    const { rowCount } = await run(
      `INSERT INTO ${this.#runs} (run_id, complete, touched_at, first_seq, next_seq) VALUES ($1, $2, $3, 1, 1) ` +
        'ON CONFLICT (run_id) DO NOTHING',
      [runId, complete, now],
    );
    return rowCount === 1;
  }

  async #lockRun(run: RunStatement, runId: string): Promise<Row | undefined> {
    return (await run(`SELECT complete, touched_at, first_seq, next_seq FROM ${this.#runs} WHERE run_id = $1 FOR UPDATE`, [runId])).rows[0];
  }

  /** The state of a run that is live at `now`; null when it has been idle too long. */
  #live(row: Row, now: number): RunState | null {
    const touchedAt = timeOf(row['touched_at']);
    const firstSeq = timeOf(row['first_seq']);
    const nextSeq = timeOf(row['next_seq']);
    const complete = row['complete'];
    if (typeof complete !== 'boolean' || touchedAt === undefined || firstSeq === undefined || nextSeq === undefined || firstSeq > nextSeq)
      throw malformedRow('history', 'an invocation run with missing or mistyped columns');
    return now - touchedAt >= this.#idleMs ? null : { complete, firstSeq, nextSeq };
  }
}
