import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

/**
 * The environment variable every shell process gets, with a value unique to the process: its
 * descendants inherit it, so one that left the process group (`setsid()`, a daemonising program) is
 * still found by it and stopped with the rest.
 */
export const SHELL_RUN_MARKER = 'MILPA_SHELL_RUN';

// Where processes are listed with their environments (Linux). Elsewhere only the group is stopped.
const PROC = '/proc';
const HAS_PROC = process.platform === 'linux';

/** A fresh marker value for one shell process. */
export function newRunMarker(): string {
  return randomUUID();
}

function carriesMarker(environ: Buffer, needle: Buffer): boolean {
  return environ.indexOf(needle) !== -1;
}

function needleOf(marker: string): Buffer {
  return Buffer.from(`${SHELL_RUN_MARKER}=${marker}\0`);
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone, or not ours to signal.
  }
}

/**
 * Sends SIGKILL to every process of this user whose environment carries `marker` (the shell process
 * and whatever it started, in its group or not). Reads `/proc`; does nothing elsewhere. Never throws.
 */
export async function killMarkedProcesses(marker: string): Promise<number> {
  if (!HAS_PROC) return 0;
  const needle = needleOf(marker);
  let entries: string[];
  try {
    entries = await readdir(PROC);
  } catch {
    return 0;
  }
  let killed = 0;
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = await readFile(`${PROC}/${entry}/environ`);
    } catch {
      continue;
    }
    if (carriesMarker(environ, needle)) {
      signal(pid, 'SIGKILL');
      killed += 1;
    }
  }
  return killed;
}

/** The same as {@link killMarkedProcesses}, synchronously: for the host's `exit` event, where nothing asynchronous runs. */
export function killMarkedProcessesSync(marker: string): void {
  if (!HAS_PROC) return;
  const needle = needleOf(marker);
  let entries: string[];
  try {
    entries = readdirSync(PROC);
  } catch {
    return;
  }
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid <= 1 || pid === process.pid) continue;
    try {
      if (carriesMarker(readFileSync(`${PROC}/${entry}/environ`), needle)) signal(pid, 'SIGKILL');
    } catch {
      // Gone, or not readable: not ours.
    }
  }
}

// The shell processes still running, by process group id, with their markers: stopped when the host exits.
const live = new Map<number, string>();
let exitHookInstalled = false;

/** Kills every tracked shell group and its marked processes now: what the host's `exit` event runs. */
export function stopAllShellGroups(): void {
  for (const [groupId, marker] of live) {
    signal(-groupId, 'SIGKILL');
    killMarkedProcessesSync(marker);
  }
  live.clear();
}

/**
 * Remembers a running shell process group so that it, and every process carrying its marker, is
 * killed when the host process exits normally (`exit` event: the end of the event loop,
 * `process.exit()`, an uncaught exception). A host killed by a signal it does not handle, or by
 * SIGKILL, runs no `exit` event, and its shell processes run on until they end by themselves: see the
 * package README. Answers the function that forgets the group once it has been stopped.
 */
export function trackShellGroup(groupId: number, marker: string): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', stopAllShellGroups);
  }
  live.set(groupId, marker);
  return () => {
    live.delete(groupId);
  };
}
