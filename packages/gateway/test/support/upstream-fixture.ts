// Helpers that start the fixture upstream (test/fixtures/upstream-server.mjs, plain JavaScript) and
// read what reached it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpUpstreamConfig, StdioUpstreamConfig } from '../../src/index.js';

export const FIXTURE = fileURLToPath(new URL('../fixtures/upstream-server.mjs', import.meta.url));

/** A file the fixture appends one JSON line to per tools/call it receives. */
export class CallLog {
  readonly path: string;

  constructor() {
    this.path = join(mkdtempSync(join(tmpdir(), 'milpa-gateway-test-')), 'calls.jsonl');
  }

  entries(): { pid: number; tool: string; args?: Record<string, unknown>; cancelled?: boolean }[] {
    if (!existsSync(this.path)) return [];
    return readFileSync(this.path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  }

  /** How many calls of `tool` reached the upstream (cancellation notes are not calls). */
  count(tool: string): number {
    return this.entries().filter((entry) => entry.tool === tool && entry.cancelled !== true).length;
  }
}

/** A stdio upstream running the fixture. */
export function stdioUpstream(name: string, log: CallLog, extra: Partial<StdioUpstreamConfig> = {}): StdioUpstreamConfig {
  return { name, command: process.execPath, args: [FIXTURE], env: { CALL_LOG: log.path }, stderr: 'ignore', ...extra };
}

/** The fixture serving Streamable HTTP on a free loopback port, as a child process. */
export interface HttpFixture {
  readonly url: string;
  readonly child: ChildProcess;
  stop(): Promise<void>;
}

export async function startHttpFixture(log: CallLog): Promise<HttpFixture> {
  const child = spawn(process.execPath, [FIXTURE, '--http'], {
    env: { ...process.env, CALL_LOG: log.path },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const match = /PORT (\d+)/.exec(buffered);
      if (match !== null) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the HTTP fixture exited early (${String(code)})`)));
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  return { url: `http://127.0.0.1:${port}/mcp`, child, stop };
}

export function httpUpstream(name: string, fixture: HttpFixture, extra: Partial<HttpUpstreamConfig> = {}): HttpUpstreamConfig {
  return { name, url: fixture.url, ...extra };
}
