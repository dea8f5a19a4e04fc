import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variable that moves the demo's state folder out of `os.tmpdir()/milpa-demo`. */
export const STATE_DIR_ENV = 'MILPA_DEMO_STATE_DIR';

/** The name of the file `pnpm demo call` and `pnpm demo mcp` keep their state in, inside the state folder. */
export const STATE_FILE_NAME = 'state.db';

/**
 * The folder the demo keeps its SQLite files in: `MILPA_DEMO_STATE_DIR` when it is set, else
 * `milpa-demo` in the system's temporary folder.
 *
 * @example
 * demoStateDirectory(process.env); // '/tmp/milpa-demo' on Linux
 */
export function demoStateDirectory(env: Readonly<Record<string, string | undefined>>): string {
  const directory = env[STATE_DIR_ENV];
  return directory === undefined || directory === '' ? join(tmpdir(), 'milpa-demo') : directory;
}

/**
 * The file `pnpm demo call` and `pnpm demo mcp` keep their state in when `--db` is not given:
 * `state.db` in {@link demoStateDirectory}.
 *
 * @example
 * defaultDemoStatePath(process.env); // '/tmp/milpa-demo/state.db' on Linux
 */
export function defaultDemoStatePath(env: Readonly<Record<string, string | undefined>>): string {
  return join(demoStateDirectory(env), STATE_FILE_NAME);
}
