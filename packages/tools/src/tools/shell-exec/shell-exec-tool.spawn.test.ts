import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolContext, unsupportedCaller } from '@milpa/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The real spawn, wrapped so the options it receives can be inspected.
const spawnSpy = vi.hoisted(() => ({ calls: [] as unknown[][] }));
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:child_process')>();
  return {
    ...actual,
    spawn: (...args: unknown[]) => {
      spawnSpy.calls.push(args);
      return (actual.spawn as (...inner: unknown[]) => unknown)(...args);
    },
  };
});

let root: string;
let Workspace: typeof import('../../sandbox/workspace.js').Workspace;
let shellExecTool: typeof import('./shell-exec-tool.js').shellExecTool;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'milpa-shell-spawn-')));
  // Test files share a module graph (vitest's `isolate: false`): an earlier file may have loaded the
  // tool with the real `spawn`, so load it afresh here, where `node:child_process` is the wrapper.
  vi.resetModules();
  ({ Workspace } = await import('../../sandbox/workspace.js'));
  ({ shellExecTool } = await import('./shell-exec-tool.js'));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('shellExecTool', () => {
  describe('spawn', () => {
    it(
      'spawns the resolved program directly, without a shell, with ' + 'a minimal environment (and its run marker) in the workspace',
      async () => {
        process.env['SECRET_TOKEN'] = 'hunter2-spawn';
        try {
          const definition = shellExecTool({ workspace: Workspace.at(root), allowlist: ['echo'] });
          await definition.handler(
            { command: 'echo "a b" c' },
            { context: ToolContext.cli(), signal: new AbortController().signal, caller: unsupportedCaller },
          );
        } finally {
          delete process.env['SECRET_TOKEN'];
        }
        expect(spawnSpy.calls).toHaveLength(1);
        const [file, args, options] = spawnSpy.calls[0] as [string, string[], Record<string, unknown>];
        expect(file).toMatch(/^\/.*\/echo$/);
        expect(args).toEqual(['a b', 'c']);
        expect(options).toMatchObject({ shell: false, cwd: root, stdio: ['ignore', 'pipe', 'pipe'], argv0: 'echo' });
        expect(options['env']).toEqual({
          PATH: '/usr/local/bin:/usr/bin:/bin',
          LANG: 'C.UTF-8',
          MILPA_SHELL_RUN: expect.stringMatching(/^[0-9a-f-]{36}$/),
        });
      },
    );

    it('spawns nothing when the call is already aborted', async () => {
      spawnSpy.calls.length = 0;
      const controller = new AbortController();
      controller.abort();
      const definition = shellExecTool({ workspace: Workspace.at(root), allowlist: ['echo'] });
      const result = (await definition.handler(
        { command: 'echo hi' },
        { context: ToolContext.cli(), signal: controller.signal, caller: unsupportedCaller },
      )) as {
        meta: Record<string, unknown>;
      };
      expect(result.meta['code']).toBe('COMMAND_ABORTED');
      expect(spawnSpy.calls).toHaveLength(0);
    });
  });
});
