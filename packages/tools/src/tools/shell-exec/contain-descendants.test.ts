import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAllShellGroups } from './contain-descendants.js';
import { runShellProcess } from './run-shell-process.js';

let root: string;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'milpa-shell-contain-')));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const linuxOnly = process.platform === 'linux' ? it : it.skip;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie answers signal 0 but runs nothing; /proc tells it apart.
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(condition: () => boolean, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

// A program that starts a grandchild in a session of its own (setsid(), as a daemon would), writes
// its pid to a file, then either waits (so the timeout stops it) or exits at once.
function detachingProgram(pidFile: string, waitForever: boolean): string[] {
  const grandchild = 'setInterval(() => {}, 1000)';
  const script = [
    "const { spawn } = require('node:child_process');",
    "const { writeFileSync } = require('node:fs');",
    `const child = spawn(process.execPath, ['-e', ${JSON.stringify(grandchild)}], { detached: true, stdio: 'ignore' });`,
    `writeFileSync(${JSON.stringify(pidFile)}, String(child.pid));`,
    'child.unref();',
    waitForever ? 'setInterval(() => {}, 1000);' : '',
  ].join('\n');
  return ['-e', script];
}

function request(args: string[], timeoutMs: number) {
  return {
    executable: process.execPath,
    program: 'node',
    args,
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '' },
    timeoutMs,
    maxOutputBytes: 10_000,
    signal: new AbortController().signal,
    killGraceMs: 200,
  };
}

describe('containing what a shell process starts', () => {
  linuxOnly('kills a grandchild that left the process group with setsid() when the timeout stops the program', async () => {
    const pidFile = join(root, 'timeout.pid');
    const outcome = await runShellProcess(request(detachingProgram(pidFile, true), 3000));
    expect(outcome.stopped).toBe('timeout');
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    expect(await until(() => !alive(grandchild), 5000)).toBe(true);
  });

  linuxOnly('kills a detached grandchild the program left behind when it exited by itself', async () => {
    const pidFile = join(root, 'exit.pid');
    const outcome = await runShellProcess(request(detachingProgram(pidFile, false), 20_000));
    expect(outcome.stopped).toBeNull();
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(await until(() => !alive(grandchild), 5000)).toBe(true);
  });

  linuxOnly('stops every running group and its detached descendants on the host exit hook', async () => {
    const pidFile = join(root, 'host-exit.pid');
    const running = runShellProcess(request(detachingProgram(pidFile, true), 60_000));
    expect(
      await until(() => {
        try {
          return Number(readFileSync(pidFile, 'utf8')) > 0;
        } catch {
          return false;
        }
      }, 20_000),
    ).toBe(true);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(alive(grandchild)).toBe(true);
    expect(process.listeners('exit')).toContain(stopAllShellGroups);
    stopAllShellGroups();
    const outcome = await running;
    expect(outcome.exitSignal).toBe('SIGKILL');
    expect(await until(() => !alive(grandchild), 5000)).toBe(true);
  });
});
