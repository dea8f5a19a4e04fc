import { ToolContext, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../support/recording-logger.js';
import { Redactor } from '../../src/audit/redactor.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// Found by test/properties/redaction.test.ts: the secrets scrubbed from runtime-written messages
// were collected only 32 levels deep, so a handler error quoting a password nested deeper reached
// the caller's result and the error log verbatim. The same walk followed every path through shared
// references, which is exponential.
const SECRET = 'ЖѢꙖЖѢꙖ';

function nested(depth: number, leaf: Record<string, unknown>): Record<string, unknown> {
  let value = leaf;
  for (let level = 0; level < depth; level += 1) value = { next: value };
  return value;
}

function bottomOf(args: Record<string, unknown>): Record<string, unknown> {
  let value = args;
  while (typeof value['next'] === 'object' && value['next'] !== null) value = value['next'] as Record<string, unknown>;
  return value;
}

describe('Redactor', () => {
  describe('collectSecrets (regression: depth and shared references)', () => {
    it.each([40, 20_000])('collects a secret nested %i levels deep', (depth) => {
      expect(new Redactor().collectSecrets(nested(depth, { password: SECRET }))).toEqual([SECRET]);
    });

    it('reads each shared object once when it is reachable through exponentially many paths', () => {
      let reads = 0;
      let value: Record<string, unknown> = {
        get note(): string {
          reads += 1;
          return 'public';
        },
        api_key: SECRET,
      };
      for (let level = 0; level < 20; level += 1) value = { left: value, right: value };
      expect(new Redactor().collectSecrets(value)).toEqual([SECRET]);
      expect(reads).toBe(1);
    });
  });
});

describe('ToolRegistry', () => {
  describe('call (regression: deep secret in a handler error)', () => {
    it.each([40, 20_000])('scrubs a password nested %i levels deep from the error message and the logs', async (depth) => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(
        defineTool({
          name: 'login',
          description: 'Fails quoting the password it was given',
          handler: (args) => {
            throw new Error(`login failed for password ${String(bottomOf(args)['password'])}`);
          },
        }),
      );
      const result = await registry.call('login', nested(depth, { password: SECRET }), ToolContext.cli());
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toBe('login failed for password ***REDACTED***');
      expect(logger.dump()).not.toContain(SECRET);
    });
  });
});
