import { EventDispatcher } from '@milpa/events';
import {
  GovernanceEvents,
  InvocationDecision,
  RateLimitResult,
  ToolContext,
  ToolDeniedEvent,
  Type,
  defineTool,
  type InvocationRule,
  type PolicyRuleProvider,
  type RateLimiter,
  type ToolResult,
} from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../../test/support/recording-logger.js';
import type { ToolRegistryOptions } from '../../registry/tool-registry-options.js';
import { ToolRegistry } from '../../registry/tool-registry.js';
import { InvalidSchemaError } from '../../validation/invalid-schema-error.js';
import { SchemaValidator } from '../../validation/schema-validator.js';

// A schema whose field names and constraints a refused caller must never learn: it sends
// `amount_cents` and `memo`, and never names `account_iban`, the limits or the pattern.
const transferInput = Type.Object(
  {
    account_iban: Type.String({ pattern: '^[A-Z]{2}[0-9]{20}$' }),
    amount_cents: Type.Integer({ minimum: 1, maximum: 500000 }),
  },
  { additionalProperties: false },
);
const INVALID_ARGS = Object.freeze({ amount_cents: -5, memo: 'hello' });
const VALID_ARGS = Object.freeze({ account_iban: 'ES12345678901234567890', amount_cents: 100 });
const SCHEMA_DETAIL = /account_iban|500000|\^\[A-Z\]|Missing required field|too small|Unknown property|memo|VALIDATION/i;

/** What a caller sees of a refusal, minus what differs between any two calls (time, request id). */
function refusalOf(result: ToolResult): Record<string, unknown> {
  const { took_ms: _took, request_id: _request, ...meta } = result.meta;
  return { success: result.success, error: result.error, data: result.data, meta };
}

/** The caller-visible text of a result: its message, data and meta. */
function visibleText(result: ToolResult): string {
  return JSON.stringify({ error: result.error, data: result.data, meta: result.meta });
}

interface Harness {
  readonly registry: ToolRegistry;
  readonly logger: RecordingLogger;
  readonly events: { name: string; event: unknown }[];
  readonly handler: ReturnType<typeof vi.fn>;
  readonly rule: ReturnType<typeof vi.fn>;
  readonly limiter: RateLimiter & { consume: ReturnType<typeof vi.fn> };
}

function setup(options: ToolRegistryOptions = {}, tool: { scopes?: string[]; mutating?: boolean; name?: string } = {}): Harness {
  const logger = new RecordingLogger();
  const dispatcher = new EventDispatcher();
  const events: { name: string; event: unknown }[] = [];
  dispatcher.subscribe('tool.*', (name, payload) => {
    events.push({ name, event: payload['event'] });
  });
  const rule = vi.fn(() => InvocationDecision.allow());
  const spyRule: InvocationRule = { identifier: 'spy.rule', evaluate: rule };
  const consume = vi.fn(() => RateLimitResult.allowed(1));
  const limiter = { consume, getUsage: () => 0, reset: () => undefined };
  const registry = new ToolRegistry({ logger, dispatcher, rules: [spyRule], rateLimiter: limiter, ...options });
  const handler = vi.fn(() => 'sent');
  registry.register(
    defineTool({
      name: tool.name ?? 'transfer_funds',
      description: 'd',
      scopes: tool.scopes ?? ['payments:write'],
      mutating: tool.mutating ?? false,
      input: transferInput,
      handler,
    }),
  );
  return { registry, logger, events, handler, rule, limiter };
}

/** Calls once with invalid and once with valid arguments, each on a fresh registry built the same way. */
async function callBoth(
  context: ToolContext,
  options: ToolRegistryOptions = {},
  tool: { scopes?: string[]; mutating?: boolean } = {},
): Promise<{ invalid: ToolResult; valid: ToolResult; harness: Harness; validHarness: Harness }> {
  const harness = setup(options, tool);
  const invalid = await harness.registry.call('transfer_funds', INVALID_ARGS, context);
  const validHarness = setup(options, tool);
  const valid = await validHarness.registry.call('transfer_funds', VALID_ARGS, context);
  return { invalid, valid, harness, validHarness };
}

function expectNothingRan(harness: Harness): void {
  expect(harness.handler).not.toHaveBeenCalled();
  expect(harness.rule).not.toHaveBeenCalled();
  expect(harness.limiter.consume).not.toHaveBeenCalled();
  expect(harness.events.some((entry) => entry.name === 'tool.executing')).toBe(false);
}

describe('validateStage', () => {
  describe('run: a caller who may not call the tool', () => {
    it('returns the require_auth refusal, with no schema detail, when an anonymous web caller sends invalid arguments', async () => {
      const { invalid, valid, harness } = await callBoth(ToolContext.web(null));
      expect(invalid.meta['code']).toBe('FORBIDDEN');
      expect(invalid.error).toBe("channel 'web' requires an authenticated principal (require_auth) — none provided.");
      expect(refusalOf(invalid)).toEqual(refusalOf(valid));
      expect(invalid.meta['errors']).toBeUndefined();
      expect(visibleText(invalid)).not.toMatch(SCHEMA_DETAIL);
      expectNothingRan(harness);
    });

    it('returns exactly the missing-scope refusal a valid call gets when the caller lacks the scope', async () => {
      const { invalid, valid, harness } = await callBoth(ToolContext.web('user:1', ['payments:read']));
      expect(valid.meta['code']).toBe('FORBIDDEN');
      expect(invalid.meta['code']).toBe(valid.meta['code']);
      expect(invalid.error).toBe(valid.error);
      expect(invalid.error).toBe(
        "Missing required scope for tool 'transfer_funds'. Need one of: payments:write — context has: payments:read.",
      );
      expect(refusalOf(invalid)).toEqual(refusalOf(valid));
      expect(visibleText(invalid)).not.toMatch(SCHEMA_DETAIL);
      expectNothingRan(harness);
    });

    it('returns the block_mutating refusal when the channel policy blocks the mutating tool', async () => {
      const context = new ToolContext({ channel: 'kiosk', principal: 'user:1', scopes: ['payments:write'] });
      const options = { channelPolicies: { kiosk: { block_mutating: true } } };
      const { invalid, valid, harness } = await callBoth(context, options, { mutating: true });
      expect(invalid.error).toBe("Mutating tool 'transfer_funds' is blocked on channel 'kiosk' (block_mutating policy).");
      expect(refusalOf(invalid)).toEqual(refusalOf(valid));
      expect(visibleText(invalid)).not.toMatch(SCHEMA_DETAIL);
      expectNothingRan(harness);
    });

    it('returns the require_auth refusal to an anonymous caller on the mcp channel under its default policy', async () => {
      const context = ToolContext.mcp('req-mcp-1', null, []);
      const { invalid, valid, harness } = await callBoth(context, {}, { scopes: [] });
      expect(invalid.error).toBe("channel 'mcp' requires an authenticated principal (require_auth) — none provided.");
      expect(refusalOf(invalid)).toEqual(refusalOf(valid));
      expect(visibleText(invalid)).not.toMatch(SCHEMA_DETAIL);
      expectNothingRan(harness);
    });

    it('returns the rule provider denial, asking the provider once, when a host rule denies the caller', async () => {
      const findMatchingRule = vi.fn(() => ({ id: 9, effect: 'deny', requiresScopes: [], description: 'Transfers are closed tonight.' }));
      const { invalid, valid, harness } = await callBoth(ToolContext.web('user:1', ['payments:write']), {
        ruleProvider: { findMatchingRule },
      });
      expect(invalid.error).toBe('Transfers are closed tonight.');
      expect(refusalOf(invalid)).toEqual(refusalOf(valid));
      expect(findMatchingRule).toHaveBeenCalledTimes(2); // once per call: the invalid one, then the valid one
      expectNothingRan(harness);
    });

    it('waits for an async rule provider and returns its denial instead of the validation error', async () => {
      const ruleProvider: PolicyRuleProvider = {
        findMatchingRule: async () => ({ id: 9, effect: 'deny', requiresScopes: [], description: 'Not for you.' }),
      };
      const { invalid, valid, harness } = await callBoth(ToolContext.web('user:1', ['payments:write']), { ruleProvider });
      expect(invalid.meta['code']).toBe('FORBIDDEN');
      expect(invalid.error).toBe('Not for you.');
      expect(refusalOf(invalid)).toEqual(refusalOf(valid));
      expectNothingRan(harness);
    });

    it('returns the refusal, not the object-shape message, when a refused caller sends arguments that are not an object', async () => {
      const { registry, handler } = setup();
      const result = await registry.call('transfer_funds', 'send it all', ToolContext.web(null));
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(result.error).toBe("channel 'web' requires an authenticated principal (require_auth) — none provided.");
      expect(visibleText(result)).not.toMatch(/Arguments must be an object/);
      expect(handler).not.toHaveBeenCalled();
    });

    it('writes exactly one audit record, the authorization denial, and dispatches one tool.denied', async () => {
      const context = new ToolContext({ channel: 'web', principal: 'user:1', scopes: [], requestId: 'req-leak' });
      const { invalid, valid, harness, validHarness } = await callBoth(context);
      const records = harness.logger.auditRecords();
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ outcome: 'auth_denied', code: 'FORBIDDEN', reason: invalid.error, request_id: 'req-leak' });
      expect(records[0]).not.toHaveProperty('errors');
      const auditLines = harness.logger.messages().filter((message) => message.startsWith('[ToolAudit]'));
      expect(auditLines).toEqual(validHarness.logger.messages().filter((message) => message.startsWith('[ToolAudit]')));
      expect(auditLines).toEqual([
        `[ToolAudit] AUTH_DENIED | req-leak | web | transfer_funds | user:1 | reason=${invalid.error as string}`,
      ]);
      expect(harness.logger.matching('VALIDATION_FAILED')).toEqual([]);

      const denied = harness.events
        .filter((entry) => entry.name === GovernanceEvents.DENIED)
        .map((entry) => entry.event as ToolDeniedEvent);
      expect(harness.events.map((entry) => entry.name)).toEqual([GovernanceEvents.DENIED]);
      expect(denied[0]).toBeInstanceOf(ToolDeniedEvent);
      expect(denied[0]).toMatchObject({ name: 'transfer_funds', reason: 'missing_scope', message: valid.error });
      expect(JSON.stringify(denied[0])).not.toMatch(SCHEMA_DETAIL);
    });

    it('writes the authorization debug lines once per call, with no validation detail', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger });
      registry.register(
        defineTool({ name: 'transfer_funds', description: 'd', scopes: ['payments:write'], input: transferInput, handler: () => 'sent' }),
      );
      const result = await registry.call('transfer_funds', INVALID_ARGS, ToolContext.web('user:1'));
      expect(logger.messages('debug').filter((message) => message.startsWith('[ToolRegistry] Auth'))).toEqual([
        '[ToolRegistry] Authorizing transfer_funds for principal=user:1, channel=web',
        `[ToolRegistry] Auth result: DENIED: ${result.error as string}`,
      ]);
      expect(logger.dump()).not.toMatch(/account_iban|Missing required field|VALIDATION/);
    });

    it('refuses fail-closed naming the policy gate when authorizing throws on invalid arguments', async () => {
      class BrokenContext extends ToolContext {
        override hasAnyScope(): boolean {
          throw new Error('scope store down');
        }
      }
      const { registry, handler } = setup();
      const context = new BrokenContext({ channel: 'web', principal: 'user:1', scopes: ['payments:write'] });
      const result = await registry.call('transfer_funds', INVALID_ARGS, context);
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toBe('Tool call refused: the policy gate failed (fail-closed): scope store down');
      expect(handler).not.toHaveBeenCalled();
    });

    it('returns the refusal, not the compiler failure, when the schema cannot compile for a refused caller', async () => {
      class FailingValidator extends SchemaValidator {
        override safeCompile(): ReturnType<SchemaValidator['safeCompile']> {
          return {
            ok: false,
            error: new InvalidSchemaError('Invalid input schema at #/properties/account_iban: unknown keyword "ibanFormat"'),
          };
        }
      }
      const { registry } = setup({ validator: new FailingValidator() });
      const refused = await registry.call('transfer_funds', VALID_ARGS, ToolContext.web(null));
      expect(refused.meta['code']).toBe('FORBIDDEN');
      expect(visibleText(refused)).not.toMatch(/account_iban|schema validator/);
      const allowed = await registry.call('transfer_funds', VALID_ARGS, ToolContext.web('user:1', ['payments:write']));
      expect(allowed.meta['code']).toBe('INTERNAL_ERROR');
      expect(allowed.error).toBe(
        'Tool call refused: the schema validator failed (fail-closed): Invalid ' +
          'input schema at #/properties/account_iban: unknown keyword "ibanFormat"',
      );
    });
  });

  describe('run: a caller who may call the tool', () => {
    it('returns VALIDATION_ERROR with meta.errors when an authorized caller sends invalid arguments', async () => {
      const { registry, logger, events, handler, rule, limiter } = setup();
      const result = await registry.call('transfer_funds', INVALID_ARGS, ToolContext.web('user:1', ['payments:write']));
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(result.error).toBe('Missing required field: account_iban; amount_cents: Value too small (min: 1); Unknown property: memo');
      expect(result.meta['errors']).toEqual([
        { path: 'account_iban', message: 'Missing required field: account_iban' },
        { path: 'amount_cents', message: 'amount_cents: Value too small (min: 1)' },
        { path: 'memo', message: 'Unknown property: memo' },
      ]);
      expect(logger.auditRecords()).toEqual([expect.objectContaining({ outcome: 'validation_failed', code: 'VALIDATION_ERROR' })]);
      expect(logger.matching('AUTH_DENIED')).toEqual([]);
      expect(events).toEqual([]);
      expect(handler).not.toHaveBeenCalled();
      expect(rule).not.toHaveBeenCalled();
      expect(limiter.consume).not.toHaveBeenCalled();
    });

    it('asks the rule provider once and returns VALIDATION_ERROR when a host rule allows the caller', async () => {
      const findMatchingRule = vi.fn(async () => ({ id: 3, effect: 'allow', requiresScopes: [], description: null }));
      const { registry, handler } = setup({ ruleProvider: { findMatchingRule } });
      const result = await registry.call('transfer_funds', INVALID_ARGS, ToolContext.web('user:1', ['payments:write']));
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(findMatchingRule).toHaveBeenCalledTimes(1);
      expect(handler).not.toHaveBeenCalled();
    });

    it('runs the call once when an authorized caller sends valid arguments', async () => {
      const findMatchingRule = vi.fn(() => null);
      const { registry, handler, rule, limiter } = setup({ ruleProvider: { findMatchingRule } });
      const result = await registry.call('transfer_funds', VALID_ARGS, ToolContext.web('user:1', ['payments:write']));
      expect(result.data).toBe('sent');
      expect(findMatchingRule).toHaveBeenCalledTimes(1);
      expect([handler.mock.calls.length, rule.mock.calls.length, limiter.consume.mock.calls.length]).toEqual([1, 1, 1]);
    });
  });

  describe('run: a tool on the deny list', () => {
    it('returns the same TOOL_NOT_FOUND for invalid arguments as for valid ones', async () => {
      const registry = new ToolRegistry({ deny: ['transfer_funds'] });
      registry.register(
        defineTool({ name: 'transfer_funds', description: 'd', scopes: ['payments:write'], input: transferInput, handler: () => 'sent' }),
      );
      const context = ToolContext.web('user:1', ['payments:write']);
      const invalid = await registry.call('transfer_funds', INVALID_ARGS, context);
      const valid = await registry.call('transfer_funds', VALID_ARGS, context);
      expect(invalid.meta['code']).toBe('TOOL_NOT_FOUND');
      expect(refusalOf(invalid)).toEqual(refusalOf(valid));
      expect(visibleText(invalid)).not.toMatch(SCHEMA_DETAIL);
    });
  });

  describe('describe', () => {
    it('says a refused caller gets the authorization refusal, and keeps validate right before authorize', () => {
      const { registry } = setup();
      const plan = registry.inspect('transfer_funds', ToolContext.web(null))!;
      expect(plan.getStep('validate').source).toContain(
        'a caller it would refuse gets the authorization refusal instead, with no argument details',
      );
      const kinds = plan.steps.map((step) => step.kind);
      expect(kinds.indexOf('authorize') - kinds.indexOf('validate')).toBe(1);
    });
  });
});

describe('validateStage (secrets in validation errors)', () => {
  it('scrubs a secret the caller sent as a key from the message, meta.errors and the audit', async () => {
    const SECRET = 'pw-valid-2b7';
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ logger, defaultContext: () => ToolContext.cli() });
    registry.register(
      defineTool({
        name: 'login',
        description: 'Logs in',
        input: Type.Object(
          { password: Type.String(), options: Type.Optional(Type.Object({}, { additionalProperties: false })) },
          { additionalProperties: false },
        ),
        handler: () => 'ok',
      }),
    );
    const result = await registry.call('login', { password: SECRET, options: { [SECRET]: true }, [`x${SECRET}`]: 1 });
    expect(result.meta['code']).toBe('VALIDATION_ERROR');
    expect(result.error).toContain('Unknown property: options.***REDACTED***');
    expect(result.meta['errors']).toContainEqual({ path: 'options.***REDACTED***', message: 'Unknown property: options.***REDACTED***' });
    expect(JSON.stringify([result.toJSON(), result.outcome, logger.dump()])).not.toContain(SECRET);
  });
});
