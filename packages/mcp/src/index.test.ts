import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as mcp from './index.js';

const SRC = fileURLToPath(new URL('.', import.meta.url));

function libraryFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return libraryFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

function importedPackages(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)]
    .map((match) => match[1] as string)
    .filter((specifier) => !specifier.startsWith('.'));
}

describe('@milpa/mcp', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(mcp).sort()).toMatchInlineSnapshot(`
        [
          "BoundedEventStore",
          "MCP_ERROR_META_KEY",
          "MCP_IDEMPOTENCY_KEY_META_KEY",
          "MCP_IDEMPOTENT_REPLAY_META_KEY",
          "MCP_REASON_META_KEY",
          "McpAuthenticationError",
          "ReplayBudget",
          "bearerAuthenticator",
          "closeMcpSseStream",
          "createMcpServer",
          "serveHttp",
          "serveStdio",
          "staticTokenAuthenticator",
        ]
      `);
    });

    it('names exactly these exports, types included, in src/index.ts', () => {
      const index = readFileSync(join(SRC, 'index.ts'), 'utf8');
      const names = [...index.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)]
        .flatMap((block) => (block[1] as string).split(','))
        .map((entry) => entry.trim().replace(/^type\s+/, ''))
        .filter((name) => name !== '')
        .sort();
      expect(names).toMatchInlineSnapshot(`
        [
          "BearerAuthenticatorOptions",
          "BoundedEventStore",
          "BoundedEventStoreOptions",
          "HttpServeOptions",
          "MCP_ERROR_META_KEY",
          "MCP_IDEMPOTENCY_KEY_META_KEY",
          "MCP_IDEMPOTENT_REPLAY_META_KEY",
          "MCP_REASON_META_KEY",
          "McpAuthenticationError",
          "McpAuthenticator",
          "McpCallInfo",
          "McpConfirmationMode",
          "McpHttpHandle",
          "McpIdentity",
          "McpResultRenderer",
          "McpServerOptions",
          "McpStdioHandle",
          "McpToolErrorCode",
          "McpToolErrorContent",
          "ProtectedResourceOptions",
          "ReplayBudget",
          "ResumableStreamsOptions",
          "StdioServeOptions",
          "bearerAuthenticator",
          "closeMcpSseStream",
          "createMcpServer",
          "serveHttp",
          "serveStdio",
          "staticTokenAuthenticator",
        ]
      `);
      expect(index).not.toMatch(/export \*/);
    });
  });

  describe('dependencies', () => {
    it('imports only core, tool-runtime, the MCP SDK and node: modules from library code', () => {
      const allowed = [...Object.keys(packageJson.dependencies), ...Object.keys(packageJson.peerDependencies)];
      const offenders = libraryFiles(SRC).flatMap((file) =>
        importedPackages(readFileSync(file, 'utf8'))
          .filter(
            (specifier) =>
              !specifier.startsWith('node:') && !allowed.some((name) => specifier === name || specifier.startsWith(`${name}/`)),
          )
          .map((specifier) => `${relative(SRC, file)} -> ${specifier}`),
      );
      expect(offenders).toEqual([]);
    });

    it('reads the package dependencies it checks against', () => {
      expect(Object.keys(packageJson.dependencies).sort()).toEqual(['@milpa/core', '@milpa/tool-runtime']);
    });

    it('leaves the MCP SDK to the application, as a peer dependency, so the app and Milpa share one copy', () => {
      expect(Object.keys(packageJson.peerDependencies)).toEqual(['@modelcontextprotocol/sdk']);
    });
  });
});
