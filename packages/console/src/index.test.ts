import { describe, expect, it } from 'vitest';
import * as consolePackage from './index.js';

describe('@milpa/console', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(consolePackage).sort()).toMatchInlineSnapshot(`
        [
          "CONTENT_SECURITY_POLICY",
          "ConsoleSessions",
          "InMemoryConsoleSessionStore",
          "WEBHOOK_SIGNATURE_HEADER",
          "WEBHOOK_TIMESTAMP_HEADER",
          "WebhookDeliveryError",
          "authorizeByTable",
          "createApprovalConsole",
          "tokenAuthentication",
          "verifyWebhookSignature",
          "webhookNotifier",
        ]
      `);
    });
  });
});
