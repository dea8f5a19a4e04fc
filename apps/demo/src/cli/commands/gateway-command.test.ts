// `pnpm demo gateway`: its configuration is a valid gateway.json, and the built demo serves the
// demo MCP server's tools through the gateway to a real MCP client on stdio.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseGatewayConfig } from '@milpa/gateway';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { STATE_DIR_ENV } from '../../state/demo-state-path.js';
import { runCli } from '../run-cli.js';

const MAIN = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));
const stateDir = mkdtempSync(join(tmpdir(), 'milpa-demo-gateway-'));

afterAll(() => {
  rmSync(stateDir, { recursive: true, force: true });
});

async function run(argv: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    stdoutIsTTY: false,
    env: { [STATE_DIR_ENV]: stateDir, ...env },
  });
  return { code, stdout, stderr };
}

describe('pnpm demo gateway', () => {
  it('prints a configuration the gateway accepts, with the mutating tools denied', async () => {
    const result = await run(['gateway', '--print-config']);
    expect(result.code).toBe(0);
    const config = parseGatewayConfig(JSON.parse(result.stdout), { env: {} });
    expect(config.deny).toEqual(['group:writes']);
    expect(config.groups?.['group:writes']).toContain('demo.delete_note');
    expect(config.upstreams[0]).toMatchObject({ name: 'demo', prefix: 'demo.', env: { [STATE_DIR_ENV]: stateDir } });
  });

  it('refuses --http without its token, naming the variable', async () => {
    const result = await run(['gateway', '--http', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^error: server\.tokens\[0\]\.tokenEnv: environment variable MILPA_DEMO_GATEWAY_TOKEN is not set\nhint: /,
    );
  });

  it("serves the demo MCP server's read tools on stdio, prefixed, and never its mutating ones", async () => {
    if (!existsSync(MAIN))
      throw new Error('dist/main.js is missing: run `pnpm turbo run build --filter=@milpa/demo` (pnpm test at the root builds first).');
    const client = new Client({ name: 'demo-gateway-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [MAIN, 'gateway'],
        env: { ...getDefaultEnvironment(), [STATE_DIR_ENV]: stateDir },
        stderr: 'ignore',
      }),
    );
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['demo.list_notes', 'demo.get_note', 'demo.lookup_crop']));
      expect(names.filter((name) => name.includes('delete') || name.includes('create'))).toEqual([]);
      const result = (await client.callTool({ name: 'demo.lookup_crop', arguments: { name: 'maize' } })) as CallToolResult;
      expect(result.isError, JSON.stringify(result)).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain('maize');
    } finally {
      await client.close();
    }
  });
});
