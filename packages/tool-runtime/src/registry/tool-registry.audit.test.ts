import { EventDispatcher } from '@milpa/events';
import { type InterceptionSlot, ToolContext, Type, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { InMemoryRateLimiter } from '../rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from './tool-registry.js';

describe('ToolRegistry', () => {
  describe('audit', () => {
    it('writes the call line for a success with request id, channel, tool, principal, ms and args', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(defineTool({ name: 'test_tool', description: 'd', handler: () => 'x' }));
      await registry.call(
        'test_tool',
        { q: 'hello' },
        new ToolContext({ channel: 'telegram', principal: 'user:1', requestId: 'req-77', scopes: ['*'] }).with({ channel: 'cli' }),
      );
      expect(logger.messages('info')).toContainEqual(
        expect.stringMatching(/^\[ToolAudit\] req-77 \| cli \| test_tool \| user:1 \| \d+ms \| OK \| args=\{"q":"hello"\}$/),
      );
    });

    it('writes one structured record for every terminal path', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher();
      const registry = new ToolRegistry({
        defaultContext: () => ToolContext.cli(),
        logger,
        dispatcher,
        rateLimiter: new InMemoryRateLimiter(),
        rateLimit: { maxTokens: 1 },
      });
      registry.register(defineTool({ name: 'ok', description: 'd', handler: () => 1 }));
      registry.register(
        defineTool({
          name: 'boom',
          description: 'd',
          handler: () => {
            throw new Error('x');
          },
        }),
      );
      registry.register(defineTool({ name: 'strict', description: 'd', input: Type.Object({ a: Type.String() }), handler: () => 1 }));
      registry.register(defineTool({ name: 'scoped', description: 'd', scopes: ['s'], handler: () => 1 }));
      registry.register(defineTool({ name: 'confirm', description: 'd', requiresConfirmation: true, handler: () => 1 }));
      registry.register(defineTool({ name: 'vetoed', description: 'd', handler: () => 1 }));
      registry.register(defineTool({ name: 'cached', description: 'd', handler: () => 1 }));
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        const event = payload['event'] as { name: string };
        const slot = payload['slot'] as InterceptionSlot;
        if (event.name === 'vetoed') slot.stop();
        if (event.name === 'cached') slot.shortCircuit('from cache');
      });
      const user = (id: string) => new ToolContext({ channel: 'web', principal: id, scopes: [] });
      await registry.call('missing', {}, user('u1'));
      await registry.call('strict', {}, user('u2'));
      await registry.call('scoped', {}, user('u3'));
      await registry.call('ok', {}, user('u4').asPlan());
      await registry.call('ok', {}, user('u4'));
      await registry.call('confirm', {}, user('u5'));
      await registry.call('confirm', {}, user('u6'), { confirmToken: 'bad' });
      await registry.call('vetoed', {}, user('u7'));
      await registry.call('cached', {}, user('u8'));
      await registry.call('boom', {}, user('u9'));
      await registry.call('ok', {}, user('u10'));
      await registry.call('ok', {}, user('u10'));
      const records = logger.auditRecords();
      expect(records.map((record) => [record['outcome'], record['code'], record['principal']])).toEqual([
        ['not_found', 'TOOL_NOT_FOUND', 'u1'],
        ['validation_failed', 'VALIDATION_ERROR', 'u2'],
        ['auth_denied', 'FORBIDDEN', 'u3'],
        ['plan', null, 'u4'],
        ['rate_limited', 'RATE_LIMITED', 'u4'],
        ['confirmation_requested', null, 'u5'],
        ['invalid_token', 'VALIDATION_ERROR', 'u6'],
        ['vetoed', null, 'u7'],
        ['ok', null, 'u8'],
        ['exception', 'EXCEPTION', 'u9'],
        ['ok', null, 'u10'],
        ['rate_limited', 'RATE_LIMITED', 'u10'],
      ]);
      for (const record of records) {
        expect(record).toMatchObject({ channel: 'web', request_id: expect.any(String), took_ms: expect.any(Number) });
      }
      expect(records[8]?.['cache_served']).toBe(true);
    });

    it('keeps secrets out of every log line and record, at any depth and in any key style', async () => {
      const logger = new RecordingLogger();
      const dispatcher = new EventDispatcher();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger, dispatcher, sensitiveFields: ['credit_card'] });
      registry.register(
        defineTool({
          name: 'connect',
          description: 'd',
          input: Type.Object({ pin: Type.String({ writeOnly: true }), note: Type.String() }, { additionalProperties: true }),
          handler: () => 'connected',
        }),
      );
      const secrets = ['pw-1', 'tok-2', 'key-3', 'ref-4', 'auth-5', 'cc-6', 'pin-7', 'deep-8'];
      await registry.call('connect', {
        pin: 'pin-7',
        note: 'visible-note',
        Password: 'pw-1',
        'Access-Token': 'tok-2',
        apiKey: 'key-3',
        REFRESH_TOKEN: 'ref-4',
        headers: { Authorization: 'auth-5' },
        credit_card: 'cc-6',
        nested: [{ client_secret: 'deep-8' }],
      });
      const everything = logger.dump();
      for (const secret of secrets) expect(everything).not.toContain(secret);
      expect(everything).toContain('visible-note');
      expect(everything).toContain('***REDACTED***');
    });

    it('logs the authorize debug lines when debug is enabled', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(defineTool({ name: 'scoped', description: 'd', scopes: ['a', 'b'], handler: () => 1 }));
      await registry.call('scoped', {}, ToolContext.web('user:1', []));
      expect(logger.messages('debug')).toEqual([
        '[ToolRegistry] Authorizing scoped for principal=user:1, channel=web',
        '[ToolRegistry] Tool scopes required: a, b',
        '[ToolRegistry] Context scopes: (none)',
        "[ToolRegistry] Auth result: DENIED: Missing required scope for tool 'scoped'. Need one of: a, b — context has: (none).",
      ]);
    });

    it('builds no debug line when the logger says debug is disabled', async () => {
      const logger = new RecordingLogger();
      const quiet = Object.assign(logger, { isLevelEnabled: (level: string) => level !== 'debug' });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger: quiet });
      registry.register(defineTool({ name: 't', description: 'd', handler: () => 1 }));
      await registry.call('t');
      expect(logger.messages('debug')).toEqual([]);
      expect(logger.messages('info')).toHaveLength(1);
    });
  });
});
