import { MilpaError, silentLogger } from '@milpa/core';
import { ApprovalSettings } from '../approval/approval-settings.js';
import { InMemoryApprovalStore } from '../approval/in-memory-approval-store.js';
import { ToolAuditLogger } from '../audit/tool-audit-logger.js';
import { ConfirmationTokenStore } from '../confirmation/confirmation-token-store.js';
import { IdempotencySettings } from '../idempotency/idempotency-settings.js';
import { InMemoryIdempotencyStore } from '../idempotency/in-memory-idempotency-store.js';
import { InMemoryInvocationHistoryStore } from '../invocation/in-memory-invocation-history-store.js';
import { InvocationRuleSet } from '../invocation/invocation-rule-set.js';
import { PipelineServices } from '../pipeline/pipeline-services.js';
import type { RegisteredTool } from '../pipeline/registered-tool.js';
import { PolicyGate } from '../policy/policy-gate.js';
import { SchemaValidator } from '../validation/schema-validator.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

function booleanOption(name: string, value: boolean): boolean {
  if (typeof value !== 'boolean')
    throw new MilpaError(`ToolRegistry option ${name} must be a boolean, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  return value;
}

function wholeOption(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new MilpaError(`ToolRegistry option ${name} must be a whole number >= 0, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

function positive(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new MilpaError(`ToolRegistry option ${name} must be a positive number, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
  return value;
}

/**
 * The services a registry's calls share, built from its options: each store and collaborator is
 * the one passed in, or its in-memory default, created here once.
 * @throws MilpaError `INVALID_ARGUMENT` for a malformed setting; `INVALID_INVOCATION_RULE` for a
 *   malformed rule, target resolver or history store.
 * @internal
 */
export function createPipelineServices(options: ToolRegistryOptions, tools: ReadonlyMap<string, RegisteredTool>): PipelineServices {
  const logger = options.logger ?? silentLogger;
  const rateLimit = options.rateLimit ?? {};
  const invocation = new InvocationRuleSet(
    options.rules,
    options.targetResolvers,
    options.historyStore ?? new InMemoryInvocationHistoryStore(),
    Math.ceil(positive('historyLeaseSeconds', options.historyLeaseSeconds ?? 900) * 1000),
  );
  const audit = new ToolAuditLogger(logger, { schemaOf: (name) => tools.get(name)?.definition.inputSchema ?? null });
  for (const field of options.sensitiveFields ?? []) audit.addSensitiveField(field);
  for (const pattern of options.sensitivePatterns ?? []) audit.addSensitivePattern(pattern);
  return new PipelineServices({
    tools,
    logger,
    dispatcher: options.dispatcher ?? null,
    // Unknown-channel warnings go to the registry's own logger.
    gate: new PolicyGate({ logger, ruleProvider: options.ruleProvider ?? null, channelPolicies: options.channelPolicies ?? {} }),
    validator: options.validator ?? new SchemaValidator(),
    confirmationStore: options.confirmationStore ?? new ConfirmationTokenStore(),
    audit,
    rateLimiter: options.rateLimiter ?? null,
    rateLimit: {
      windowSeconds: positive('rateLimit.windowSeconds', rateLimit.windowSeconds ?? 60),
      maxTokens: positive('rateLimit.maxTokens', rateLimit.maxTokens ?? 100),
      cost: positive('rateLimit.cost', rateLimit.cost ?? 1),
      mutatingCost: positive('rateLimit.mutatingCost', rateLimit.mutatingCost ?? 5),
    },
    exposeErrorMessages: options.exposeErrorMessages ?? true,
    invocation,
    tidyArguments: booleanOption('tidyArguments', options.tidyArguments ?? false),
    maxResultChars: wholeOption('maxResultTokens', options.maxResultTokens ?? 2_500) * 4,
    approvals: new ApprovalSettings({
      gate: options.approvalGate ?? null,
      gates: options.approvalGates ?? {},
      store: options.approvalStore ?? new InMemoryApprovalStore(),
      ttlSeconds: options.approvalTtlSeconds ?? 3_600,
    }),
    idempotency: new IdempotencySettings({
      store: options.idempotencyStore ?? new InMemoryIdempotencyStore(),
      retentionSeconds: options.idempotencyRetentionSeconds ?? 86_400,
      leaseSeconds: options.idempotencyLeaseSeconds ?? 300,
    }),
  });
}
