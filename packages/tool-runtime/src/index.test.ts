import { describe, expect, it } from 'vitest';
import * as runtime from './index.js';

describe('@milpa/tool-runtime', () => {
  it('exports exactly this public surface', () => {
    expect(Object.keys(runtime).sort()).toMatchInlineSnapshot(`
      [
        "AuthorizationResult",
        "CliRenderer",
        "ConfirmationTokenStore",
        "DEFAULT_CHANNEL_POLICIES",
        "DEFAULT_MODEL_LIMIT",
        "DEFAULT_SENSITIVE_FIELDS",
        "DefaultRenderer",
        "FAIL_CLOSED_CHANNEL_POLICY",
        "InMemoryInvocationHistoryStore",
        "InMemoryRateLimiter",
        "InvalidSchemaError",
        "InvocationPlan",
        "InvocationPlanBuilder",
        "InvocationStep",
        "InvocationStepKind",
        "InvocationStepRole",
        "MODEL_LIMITS",
        "OPENAI_STYLE_PROVIDERS",
        "PolicyGate",
        "ProviderToolShapes",
        "RECOMMENDED_TOOL_BUDGET_PERCENT",
        "REDACTED",
        "Redactor",
        "RegistryWiring",
        "RendererRegistry",
        "SchemaValidator",
        "StepPresence",
        "TELEMETRY_NAMES",
        "TokenEstimator",
        "ToolAlreadyRegisteredError",
        "ToolAuditLogger",
        "ToolRegistry",
        "ToolScanner",
        "ValidationResult",
        "formatExpiresAt",
        "isHostStepKind",
        "rateLimitKey",
        "resolveProviderShape",
        "toProviderTool",
      ]
    `);
  });
});
