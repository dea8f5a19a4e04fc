import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GatewayConfigError } from './gateway-config-error.js';
import { loadGatewayConfig, parseGatewayConfig } from './parse-gateway-config.js';

function issuesOf(value: unknown, env: Record<string, string> = {}): string[] {
  try {
    parseGatewayConfig(value, { env });
  } catch (error) {
    if (error instanceof GatewayConfigError) return error.issues.map((issue) => issue.message);
    throw error;
  }
  throw new Error('expected a GatewayConfigError');
}

describe('parseGatewayConfig', () => {
  it('returns a valid configuration deeply frozen, with ${NAME} replaced in env and headers', () => {
    const config = parseGatewayConfig(
      {
        upstreams: [
          { name: 'files', command: 'node', args: ['server.js'], env: { API_KEY: '${FILES_KEY}', MODE: 'ro' } },
          { name: 'web', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${WEB_TOKEN}' } },
        ],
      },
      { env: { FILES_KEY: 'k1', WEB_TOKEN: 't2' } },
    );
    expect(config.upstreams[0]).toMatchObject({ env: { API_KEY: 'k1', MODE: 'ro' } });
    expect(config.upstreams[1]).toMatchObject({ headers: { Authorization: 'Bearer t2' } });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.upstreams[0])).toBe(true);
  });

  it('never changes the object it was given', () => {
    const input = { upstreams: [{ name: 'files', command: 'node', env: { KEY: '${K}' } }] };
    parseGatewayConfig(input, { env: { K: 'v' } });
    expect(input.upstreams[0]!.env.KEY).toBe('${K}');
  });

  it('refuses a document that is not an object', () => {
    expect(issuesOf([])).toEqual(['the configuration must be a JSON object']);
    expect(issuesOf('x')).toEqual(['the configuration must be a JSON object']);
  });

  it('lists every schema problem at once, naming each field', () => {
    const issues = issuesOf({
      upstreams: [{ name: 'ok', command: 'node', tools: { echo: { scopes: 'x', approval: 'maybe' } } }],
      rateLimit: { maxTokens: 0 },
      extra: true,
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        'Unknown property: extra',
        expect.stringContaining('rateLimit.maxTokens'),
        expect.stringContaining('upstreams[0].tools.echo.scopes'),
        expect.stringContaining('upstreams[0].tools.echo.approval'),
      ]),
    );
  });

  it('needs at least one upstream', () => {
    expect(issuesOf({})).toEqual(['Missing required field: upstreams']);
    expect(issuesOf({ upstreams: [] })).toEqual([expect.stringContaining('upstreams')]);
  });

  it('needs exactly one of command and url per upstream', () => {
    expect(issuesOf({ upstreams: [{ name: 'a' }, { name: 'b', command: 'node', url: 'http://x' }] })).toEqual([
      'upstreams[0]: needs command (a child process on stdio) or url (Streamable HTTP)',
      'upstreams[1]: give either command (a child process on stdio) or url (Streamable HTTP), not both',
    ]);
  });

  it('checks each upstream against the fields of its kind', () => {
    const issues = issuesOf({
      upstreams: [
        { name: 'a', command: 'node', headers: {} },
        { name: 'b', url: 'ftp://x', args: [] },
      ],
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Unknown property: upstreams\[0\]\.headers/),
        expect.stringMatching(/Unknown property: upstreams\[1\]\.args/),
        expect.stringContaining('upstreams[1].url'),
      ]),
    );
  });

  it('refuses names and prefixes that would make tool names collide', () => {
    expect(
      issuesOf({
        upstreams: [
          { name: 'a', command: 'x' },
          { name: 'a', command: 'y' },
        ],
      }),
    ).toEqual([
      "upstreams[1].name: 'a' is already the name of upstreams[0]",
      "upstreams[1].prefix: 'a_' is already the prefix of upstreams[0]; tool names would collide",
    ]);
    expect(
      issuesOf({
        upstreams: [
          { name: 'a', command: 'x', prefix: 'p.' },
          { name: 'b', command: 'y', prefix: 'p.' },
        ],
      }),
    ).toEqual(["upstreams[1].prefix: 'p.' is already the prefix of upstreams[0]; tool names would collide"]);
  });

  it('names every environment variable that is not set', () => {
    expect(
      issuesOf({
        upstreams: [
          { name: 'a', command: 'x', env: { K: '${MISSING_ONE}' } },
          { name: 'b', url: 'http://x', headers: { H: '${MISSING_TWO}' } },
        ],
      }),
    ).toEqual([
      'upstreams[0].env.K: environment variable MISSING_ONE is not set',
      'upstreams[1].headers.H: environment variable MISSING_TWO is not set',
    ]);
  });

  it('needs tokens to serve over http, and each token variable set', () => {
    expect(issuesOf({ upstreams: [{ name: 'a', command: 'x' }], server: { transport: 'http' } })).toEqual([
      'server.tokens: serving over http needs at least one token (clients authenticate with a bearer token)',
    ]);
    expect(
      issuesOf({ upstreams: [{ name: 'a', command: 'x' }], server: { transport: 'http', tokens: [{ tokenEnv: 'NOPE', principal: 'p' }] } }),
    ).toEqual(['server.tokens[0].tokenEnv: environment variable NOPE is not set']);
  });

  it('refuses a restart delay range upside down', () => {
    expect(issuesOf({ upstreams: [{ name: 'a', command: 'x' }], restart: { initialDelayMs: 5_000, maxDelayMs: 100 } })).toEqual([
      'restart: initialDelayMs must not be larger than maxDelayMs',
    ]);
  });

  it('says what was read in the first line of the message', () => {
    expect(() => parseGatewayConfig({}, { source: 'gateway configuration ./gw.json' })).toThrow(
      /^Invalid gateway configuration \.\/gw\.json:\n {2}- Missing required field: upstreams$/,
    );
  });
});

describe('loadGatewayConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'milpa-gateway-config-'));

  it('reads a file and resolves a relative cwd against its directory', async () => {
    const path = join(dir, 'gateway.json');
    writeFileSync(path, JSON.stringify({ upstreams: [{ name: 'a', command: 'node', cwd: 'servers/a' }] }));
    const config = await loadGatewayConfig(path, {});
    expect(config.upstreams[0]).toMatchObject({ cwd: join(dir, 'servers/a') });
  });

  it('throws a GatewayConfigError for a missing file or one that is not JSON', async () => {
    await expect(loadGatewayConfig(join(dir, 'absent.json'), {})).rejects.toThrow(/cannot read the file/);
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{');
    await expect(loadGatewayConfig(broken, {})).rejects.toBeInstanceOf(GatewayConfigError);
  });
});
