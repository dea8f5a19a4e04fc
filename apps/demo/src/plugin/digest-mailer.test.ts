import { ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';

const KEY = 'sk-demo-0123456789';

describe('DigestMailer', () => {
  describe('send_digest', () => {
    it('queues a digest of the current notes', async () => {
      const { registry, mailer } = await createDemoRuntime();
      const result = await registry.call('send_digest', { to: 'ana@example.com', api_key: KEY }, ToolContext.cli('r1'));
      expect(result.data).toEqual({ message_id: 'digest-1', to: 'ana@example.com', notes: 5 });
      expect(mailer.outbox).toHaveLength(1);
    });

    it('keeps the key out of every log line and audit record', async () => {
      const { registry, logger } = await createDemoRuntime();
      await registry.call('send_digest', { to: 'ana@example.com', api_key: KEY }, ToolContext.cli('r1'));
      await registry.call('send_digest', { to: 'not-an-email', api_key: KEY }, ToolContext.cli('r2'));
      await registry.call('send_digest', { to: 'ana@example.com', api_key: KEY }, ToolContext.mcp('r3', 'agent:x', ['notes:read']));
      const written = JSON.stringify(logger.entries());
      expect(logger.entries()).toHaveLength(3);
      expect(written).not.toContain(KEY);
      expect(logger.auditLines()[0]).toContain('"api_key":"***REDACTED***"');
    });

    it('refuses a key the provider does not accept without repeating it', async () => {
      const { registry, mailer } = await createDemoRuntime();
      const result = await registry.call('send_digest', { to: 'ana@example.com', api_key: 'live-key-secret' }, ToolContext.cli('r1'));
      expect(result.getCode()).toBe('UNAUTHORIZED');
      expect(JSON.stringify(result)).not.toContain('live-key-secret');
      expect(mailer.outbox).toHaveLength(0);
    });

    it('rejects an invalid address before the provider is reached', async () => {
      const { registry, mailer } = await createDemoRuntime();
      const result = await registry.call('send_digest', { to: 'nobody', api_key: KEY }, ToolContext.cli('r1'));
      expect(result.getCode()).toBe('VALIDATION_ERROR');
      expect(mailer.outbox).toHaveLength(0);
    });
  });
});
