import { describe, expect, it } from 'vitest';
import * as runtime from './index.js';

describe('@milpa/tool-runtime', () => {
  it('exports exactly this public surface', () => {
    expect(Object.keys(runtime).sort()).toMatchInlineSnapshot(`
      [
        "AuthorizationResult",
        "ConfirmationTokenStore",
        "DEFAULT_CHANNEL_POLICIES",
        "FAIL_CLOSED_CHANNEL_POLICY",
        "InMemoryApprovalStore",
        "InMemoryIdempotencyStore",
        "InMemoryInvocationHistoryStore",
        "InMemoryRateLimiter",
        "InvalidSchemaError",
        "PolicyGate",
        "SchemaValidator",
        "TELEMETRY_NAMES",
        "ToolAlreadyRegisteredError",
        "ToolRegistry",
        "ToolScanner",
        "ValidationResult",
        "capToolResult",
        "formatExpiresAt",
        "policyApprovalGate",
        "rateLimitKey",
        "terminalApprovalGate",
      ]
    `);
  });
});
