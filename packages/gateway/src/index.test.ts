import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import * as gateway from './index.js';

const SRC = fileURLToPath(new URL('.', import.meta.url));

/** The library's own source files (tests left out). */
const sourceFiles = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .map((file) => join(SRC, file));

describe('@milpa/gateway', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(gateway).sort()).toMatchInlineSnapshot(`
        [
          "GATEWAY_CONFIG_SCHEMA",
          "Gateway",
          "GatewayConfigError",
          "GatewayToolRegistry",
          "HTTP_UPSTREAM_SCHEMA",
          "RestartBackoff",
          "STDIO_UPSTREAM_SCHEMA",
          "ToolApprovalGate",
          "ToolCostRateLimiter",
          "UPSTREAM_ERROR_META_KEY",
          "UpstreamConnection",
          "UpstreamUnavailableError",
          "capContentBlocks",
          "createGateway",
          "isMutatingByAnnotations",
          "isStdioUpstream",
          "loadGatewayConfig",
          "parseGatewayConfig",
          "resolveToolPolicy",
          "toGatewayInputSchema",
          "toGatewayTool",
          "toUpstreamFailure",
          "toUpstreamResult",
        ]
      `);
    });

    it('imports only the packages it declares (and Node built-ins)', () => {
      const declared = new Set(Object.keys(packageJson.dependencies));
      for (const file of sourceFiles) {
        const code = readFileSync(file, 'utf8');
        for (const [, specifier] of code.matchAll(/\bfrom\s+['"]([^'"]+)['"]/g)) {
          if (specifier === undefined || specifier.startsWith('.') || specifier.startsWith('node:')) continue;
          const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');
          expect(declared, `${file} imports ${specifier}`).toContain(name);
        }
      }
    });

    it('declares the milpa-gateway command', () => {
      expect(packageJson.bin).toEqual({ 'milpa-gateway': './bin/milpa-gateway.js' });
    });
  });
});
