// The milpa-gateway command, run as users run it: its launcher (bin/milpa-gateway.js, which runs the
// built dist/cli.js) as a child process, launched by a real MCP client over stdio, in front of a real
// upstream. `pnpm test` at the root builds first; alone, run `pnpm --filter @milpa/gateway run build`
// before vitest.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpError, ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runGatewayCli } from '../src/cli/run-gateway-cli.js';
import { errorCode, textOf, toolNames } from './support/gateway-client.js';
import { CallLog, stdioUpstream } from './support/upstream-fixture.js';

const CLI = fileURLToPath(new URL('../bin/milpa-gateway.js', import.meta.url));
const BUILT_CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function writeConfig(config: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), 'milpa-gateway-cli-')), 'gateway.json');
  writeFileSync(path, JSON.stringify(config, null, 2));
  return path;
}

function captureIo(env: Record<string, string | undefined> = {}): {
  io: Parameters<typeof runGatewayCli>[1] & object;
  output: () => string;
} {
  let text = '';
  return { io: { stderr: { write: (chunk: string) => (text += chunk) }, env }, output: () => text };
}

describe('milpa-gateway', () => {
  describe('--check and bad input', () => {
    it('exits 0 for a valid configuration', async () => {
      const { io, output } = captureIo();
      const path = writeConfig({ upstreams: [{ name: 'up', command: 'node' }] });
      expect(await runGatewayCli(['--config', path, '--check'], io)).toBe(0);
      expect(output()).toContain('is valid (1 upstream(s))');
    });

    it('exits 2 and lists every problem of an invalid configuration', async () => {
      const { io, output } = captureIo();
      const path = writeConfig({
        upstreams: [
          { name: 'up', command: 'node', url: 'http://x' },
          { name: 'bad name!', url: 'ftp://x' },
        ],
        extra: 1,
      });
      expect(await runGatewayCli(['--config', path, '--check'], io)).toBe(2);
      expect(output()).toContain('Unknown property: extra');
      expect(output()).toContain('upstreams[0]: give either command');
      expect(output()).toContain('upstreams[1].name');
      expect(output()).toContain('upstreams[1].url');
    });

    it('exits 2 without --config, and for a file that is not JSON', async () => {
      const missing = captureIo();
      expect(await runGatewayCli([], missing.io)).toBe(2);
      expect(missing.output()).toContain('--config is required');
      const path = join(mkdtempSync(join(tmpdir(), 'milpa-gateway-cli-')), 'gateway.json');
      writeFileSync(path, '{ not json');
      const broken = captureIo();
      expect(await runGatewayCli(['--config', path], broken.io)).toBe(2);
      expect(broken.output()).toContain('not valid JSON');
    });

    it('exits 2 for an unknown option', async () => {
      const { io, output } = captureIo();
      expect(await runGatewayCli(['--config', 'x.json', '--bogus'], io)).toBe(2);
      expect(output()).toContain('Usage: milpa-gateway');
    });
  });

  describe('serving on stdio', () => {
    let client: Client | null = null;
    beforeAll(() => {
      if (!existsSync(BUILT_CLI))
        throw new Error('dist/cli.js is missing: run `pnpm --filter @milpa/gateway run build` (pnpm test at the root builds first).');
    });
    afterEach(async () => {
      await client?.close();
      client = null;
    });

    it("serves the upstream's tools, follows its tools/list_changed and notifies the client", async () => {
      const log = new CallLog();
      const path = writeConfig({ upstreams: [stdioUpstream('up', log)], server: { transport: 'stdio' } });
      client = new Client({ name: 'cli-test', version: '1.0.0' });
      let notified = 0;
      let onNotified: () => void = () => undefined;
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        notified++;
        onNotified();
      });
      const nextNotification = (): Promise<void> => new Promise((resolve) => (onNotified = resolve));
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, '--config', path], stderr: 'ignore' }));

      const before = await toolNames(client);
      expect(before).toContain('up_toggle_extra');
      expect(before).not.toContain('up_extra');

      let changed = nextNotification();
      expect(errorCode((await client.callTool({ name: 'up_toggle_extra', arguments: {} })) as CallToolResult)).toBeNull();
      await changed;
      expect(await toolNames(client)).toContain('up_extra');
      expect(textOf((await client.callTool({ name: 'up_extra', arguments: {} })) as CallToolResult)).toBe('extra ran');

      changed = nextNotification();
      await client.callTool({ name: 'up_toggle_extra', arguments: {} });
      await changed;
      expect(await toolNames(client)).not.toContain('up_extra');
      // A withdrawn tool is no longer offered, so it is answered as an unknown tool.
      const withdrawn = await client.callTool({ name: 'up_extra', arguments: {} }).catch((error: unknown) => error);
      expect(withdrawn).toBeInstanceOf(McpError);
      expect((withdrawn as McpError).message).toContain('Tool not found: up_extra');
      expect(log.count('extra')).toBe(1);
      expect(notified).toBe(2);
    });
  });
});
