import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { SHELL_RUN_MARKER, killMarkedProcesses, newRunMarker, trackShellGroup } from './contain-descendants.js';

/** Why a process was stopped before it ended by itself. */
export type ShellStopReason = 'timeout' | 'aborted' | 'output_limit';

/** What {@link runShellProcess} runs, and its limits. */
export interface ShellProcessRequest {
  /** The absolute path of the program (already resolved on `PATH`). */
  readonly executable: string;
  /** The bare program name, used as `argv[0]`. */
  readonly program: string;
  /** The arguments, passed as they are: no shell sees them. */
  readonly args: readonly string[];
  /** The working folder. */
  readonly cwd: string;
  /** The whole environment of the process (plus the run marker, `MILPA_SHELL_RUN`). */
  readonly env: Readonly<Record<string, string>>;
  /** Stop the process after this many milliseconds. */
  readonly timeoutMs: number;
  /** Stop the process once stdout and stderr together pass this many bytes; no more is kept. */
  readonly maxOutputBytes: number;
  /** Stop the process when this aborts. */
  readonly signal: AbortSignal;
  /** How long a stopped process gets between SIGTERM and SIGKILL. */
  readonly killGraceMs: number;
}

/** How a process ended. */
export interface ShellProcessOutcome {
  /** The exit code, or null when a signal ended the process. */
  readonly exitCode: number | null;
  /** The signal that ended the process, or null. */
  readonly exitSignal: NodeJS.Signals | null;
  /** Everything read from stdout (within the output limit). */
  readonly stdout: Buffer;
  /** Everything read from stderr (within the output limit). */
  readonly stderr: Buffer;
  /** Total bytes the process wrote to stdout and stderr, kept or not. */
  readonly totalBytes: number;
  /** Wall time from spawn to the end, in milliseconds. */
  readonly durationMs: number;
  /** Why the process was stopped, or null when it ended by itself. */
  readonly stopped: ShellStopReason | null;
}

// A process group of its own lets a stop reach whatever the program started, too (not on Windows).
const OWN_GROUP = process.platform !== 'win32';
// After the program ends, how long its pipes may stay open (held by a descendant) before they are closed.
const PIPE_CLOSE_GRACE_MS = 1000;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    if (OWN_GROUP) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Already gone.
  }
}

/**
 * Runs one program directly (`spawn` with `shell: false`, stdin closed) in a session and process
 * group of its own, and collects its output. On the timeout, the abort signal, or output beyond the
 * limit, its process group gets SIGTERM and, after the grace period, SIGKILL. When it ends, for
 * whatever reason, everything it started is killed: its process group, and (on Linux) every process
 * that carries its run marker in its environment, so a descendant that left the group with
 * `setsid()` goes too. Groups still running when the host exits are killed on its `exit` event.
 * Rejects only when the program cannot be started.
 */
export function runShellProcess(request: ShellProcessRequest): Promise<ShellProcessOutcome> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const marker = newRunMarker();
    let child: ChildProcess;
    try {
      child = spawn(request.executable, [...request.args], {
        shell: false,
        cwd: request.cwd,
        env: { ...request.env, [SHELL_RUN_MARKER]: marker },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: OWN_GROUP,
        argv0: request.program,
        windowsHide: true,
      });
    } catch (error) {
      reject(error);
      return;
    }

    const untrack = OWN_GROUP && child.pid !== undefined ? trackShellGroup(child.pid, marker) : () => undefined;
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let kept = 0;
    let totalBytes = 0;
    let stopped: ShellStopReason | null = null;
    let exited = false;
    let settled = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let pipeTimer: NodeJS.Timeout | undefined;

    const stop = (reason: ShellStopReason): void => {
      if (stopped !== null || exited) return;
      stopped = reason;
      signalGroup(child, 'SIGTERM');
      killTimer = setTimeout(() => signalGroup(child, 'SIGKILL'), request.killGraceMs);
    };
    const timeoutTimer = setTimeout(() => stop('timeout'), request.timeoutMs);
    const onAbort = (): void => stop('aborted');
    request.signal.addEventListener('abort', onAbort, { once: true });

    const cleanUp = (): void => {
      clearTimeout(timeoutTimer);
      clearTimeout(killTimer);
      clearTimeout(pipeTimer);
      request.signal.removeEventListener('abort', onAbort);
    };
    const finish = (): void => {
      if (settled) return;
      settled = true;
      cleanUp();
      // Whatever the program left running goes with it: its group, and any process carrying its marker.
      signalGroup(child, 'SIGKILL');
      const outcome: ShellProcessOutcome = {
        exitCode,
        exitSignal,
        stdout: Buffer.concat(stdout),
        stderr: Buffer.concat(stderr),
        totalBytes,
        durationMs: Math.round(performance.now() - started),
        stopped,
      };
      void killMarkedProcesses(marker).finally(() => {
        untrack();
        resolve(outcome);
      });
    };

    const collect =
      (chunks: Buffer[]) =>
      (chunk: Buffer): void => {
        totalBytes += chunk.length;
        const room = request.maxOutputBytes - kept;
        if (room > 0) {
          const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
          chunks.push(part);
          kept += part.length;
        }
        if (totalBytes > request.maxOutputBytes) stop('output_limit');
      };
    child.stdout?.on('data', collect(stdout));
    child.stderr?.on('data', collect(stderr));

    child.once('error', (error) => {
      if (settled) return;
      if (child.pid === undefined) {
        settled = true;
        cleanUp();
        untrack();
        reject(error);
      }
    });
    child.once('exit', (code, signal) => {
      exited = true;
      exitCode = code;
      exitSignal = signal;
      pipeTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, PIPE_CLOSE_GRACE_MS);
    });
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      exitCode = code;
      exitSignal = signal;
      finish();
    });

    if (request.signal.aborted) stop('aborted');
  });
}
