import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvocationHistory, InvocationOutcome, isInvocationTarget, type InvocationHistoryStore, type InvocationObservation } from '@milpa/core';

/** Options of {@link FileInvocationHistoryStore}. */
export interface FileInvocationHistoryStoreOptions {
  /** Where the run files live; default `os.tmpdir()/milpa-demo`. Created on the first write. */
  readonly directory?: string;
  /** Run files kept at once (default 200); opening one more deletes the least recently written. */
  readonly maxRuns?: number;
  /**
   * Observations kept per run (default 500); past it the oldest are dropped and the run becomes
   * incomplete, so a rule that needs a complete history refuses rather than miscounts.
   */
  readonly maxObservationsPerRun?: number;
}

/** The JSON of one run file. */
interface RunFile {
  readonly version: 1;
  readonly runId: string;
  readonly complete: boolean;
  readonly observations: readonly InvocationObservation[];
}

const FILE_PREFIX = 'run-';
const FILE_SUFFIX = '.json';
/** The longest tool name kept (the runtime cuts longer ones too). */
const MAX_TOOL_NAME = 128;

/** The default directory of the demo's run files: `milpa-demo` in the system's temporary folder. */
export function defaultHistoryDirectory(): string {
  return join(tmpdir(), 'milpa-demo');
}

function whole(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`FileInvocationHistoryStore option ${name} must be a whole number >= 1.`);
  return value;
}

/** One stored observation, checked field by field; null for anything malformed. */
function readObservation(value: unknown): InvocationObservation | null {
  if (typeof value !== 'object' || value === null) return null;
  const { tool, outcome, target } = value as { tool?: unknown; outcome?: unknown; target?: unknown };
  if (typeof tool !== 'string' || tool === '' || tool.length > MAX_TOOL_NAME) return null;
  if (!InvocationOutcome.isInvocationOutcome(outcome)) return null;
  if (target !== null && !isInvocationTarget(target)) return null;
  return { tool, outcome, target: target === null ? null : { kind: target.kind, id: target.id } };
}

/** The run file's content, checked; null when it is not a well-formed file for `runId`. */
function readRunFile(text: string, runId: string): RunFile | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { version, runId: storedId, complete, observations } = parsed as Partial<Record<keyof RunFile, unknown>>;
  // A file for another run (a hash collision, a copied file) is not this run's history.
  if (version !== 1 || storedId !== runId || typeof complete !== 'boolean' || !Array.isArray(observations)) return null;
  const checked: InvocationObservation[] = [];
  for (const observation of observations) {
    const read = readObservation(observation);
    if (read === null) return null;
    checked.push(read);
  }
  return { version: 1, runId, complete, observations: checked };
}

/**
 * Keeps each run's invocation history in a small JSON file, so a run outlives the process that
 * opened it: every `pnpm demo call` is a new process, and `--run <id>` picks its run back up.
 * One file per run, named by a hash of the run id (an id never becomes a path); every write goes
 * to a temporary file first and is renamed into place, so a reader sees the old file or the new
 * one, never half of one. It is bounded: `maxRuns` files, `maxObservationsPerRun` observations
 * (trimming makes the run incomplete). A file it cannot read — missing, corrupt, for another run —
 * is an unknown run: its history loads as null (incomplete), never as a crash. Concurrent calls in
 * one run may lose an observation to each other; it is a demo store, not a database.
 *
 * @example
 * const registry = new ToolRegistry({ historyStore: new FileInvocationHistoryStore() });
 * const runId = await registry.startRun(); // run-….json under os.tmpdir()/milpa-demo
 */
export class FileInvocationHistoryStore implements InvocationHistoryStore {
  /** The directory holding the run files. */
  readonly directory: string;
  readonly #maxRuns: number;
  readonly #maxObservations: number;

  /** A store in `options.directory` (default {@link defaultHistoryDirectory}); nothing is created until a write. */
  constructor(options: FileInvocationHistoryStoreOptions = {}) {
    this.directory = options.directory ?? defaultHistoryDirectory();
    this.#maxRuns = whole('maxRuns', options.maxRuns, 200);
    this.#maxObservations = whole('maxObservationsPerRun', options.maxObservationsPerRun, 500);
  }

  /** The file that holds `runId`'s history. */
  fileOf(runId: string): string {
    return join(this.directory, `${FILE_PREFIX}${createHash('sha256').update(runId).digest('hex').slice(0, 32)}${FILE_SUFFIX}`);
  }

  /**
   * Opens `runId` with a complete, empty history; false, changing nothing, when a file for it
   * exists already — even an unreadable one: a history is never reset.
   */
  startRun(runId: string): boolean {
    this.#prune();
    const temporary = this.#writeTemporary({ version: 1, runId, complete: true, observations: [] });
    try {
      // A hard link creates the run file only if there is none: two processes opening one id cannot both win.
      linkSync(temporary, this.fileOf(runId));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      rmSync(temporary, { force: true });
    }
  }

  /** The run's history, or null when there is no readable file for it. */
  load(runId: string): InvocationHistory | null {
    const run = this.#read(runId);
    return run === null ? null : new InvocationHistory(run.observations, run.complete);
  }

  /** Appends one observation; a run with no readable file is recorded as incomplete. */
  append(runId: string, observation: InvocationObservation): void {
    const run = this.#read(runId);
    // A run id this store never opened still gets a (incomplete) file: keep the file count bounded.
    if (run === null) this.#prune();
    const observations = [...(run?.observations ?? []), { tool: observation.tool.slice(0, MAX_TOOL_NAME), outcome: observation.outcome, target: observation.target }];
    const trimmed = observations.length > this.#maxObservations;
    if (trimmed) observations.splice(0, observations.length - this.#maxObservations);
    const temporary = this.#writeTemporary({ version: 1, runId, complete: run !== null && run.complete && !trimmed, observations });
    try {
      renameSync(temporary, this.fileOf(runId));
    } catch (error) {
      rmSync(temporary, { force: true });
      throw error;
    }
  }

  #read(runId: string): RunFile | null {
    let text: string;
    try {
      text = readFileSync(this.fileOf(runId), 'utf8');
    } catch {
      return null;
    }
    return readRunFile(text, runId);
  }

  /** Writes `run` to a fresh temporary file beside the run files and returns its path. */
  #writeTemporary(run: RunFile): string {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    const temporary = join(this.directory, `.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
    writeFileSync(temporary, JSON.stringify(run), { encoding: 'utf8', mode: 0o600, flag: 'wx' });
    return temporary;
  }

  /** Deletes the least recently written run files until one more fits under `maxRuns`. */
  #prune(): void {
    let names: string[];
    try {
      names = readdirSync(this.directory).filter((name) => name.startsWith(FILE_PREFIX) && name.endsWith(FILE_SUFFIX));
    } catch {
      return;
    }
    if (names.length < this.#maxRuns) return;
    const byAge = names
      .map((name) => {
        try {
          return { name, written: statSync(join(this.directory, name)).mtimeMs };
        } catch {
          return { name, written: 0 };
        }
      })
      .sort((a, b) => a.written - b.written || a.name.localeCompare(b.name));
    for (const { name } of byAge.slice(0, names.length - this.#maxRuns + 1)) rmSync(join(this.directory, name), { force: true });
  }
}
