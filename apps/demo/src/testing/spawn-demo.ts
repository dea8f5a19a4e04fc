// Test support for the end-to-end tests: the built CLI (`node dist/main.js`) as a child process.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The app's folder, where the children run. */
export const DEMO_APP_DIR = fileURLToPath(new URL('../..', import.meta.url));

/** The built CLI the children run (tsup builds it from src/main.ts). */
export const DEMO_MAIN = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** What a finished child left: its exit status and everything it wrote. */
export interface DemoRun {
  /** The exit status (null when a signal ended it). */
  readonly code: number | null;
  /** Everything written to standard output. */
  readonly stdout: string;
  /** Everything written to standard error. */
  readonly stderr: string;
}

/**
 * Runs `node dist/main.js …args` in the app's folder with `env` and no standard input, and resolves
 * when it has exited.
 *
 * @example
 * const { code, stdout } = await spawnDemo(['call', 'list_notes'], process.env);
 */
export function spawnDemo(args: readonly string[], env: NodeJS.ProcessEnv): Promise<DemoRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEMO_MAIN, ...args], { cwd: DEMO_APP_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
