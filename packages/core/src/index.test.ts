/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json';
import * as core from './index.js';

// Every TypeScript file of src/ but this one (Vite leaves the importer out), as text, loaded by
// Vite so this test needs no `node:` module itself.
const SOURCES = import.meta.glob<string>(['./**/*.ts'], { query: '?raw', import: 'default', eager: true });

function importedSpecifiers(source: string): string[] {
  const specifiers: string[] = [];
  // JSDoc examples import '@milpa/core'; only real code counts.
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const pattern =
    /(?:^|[\s;])(?:import|export)\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of code.matchAll(pattern)) specifiers.push((match[1] ?? match[2] ?? match[3]) as string);
  return specifiers;
}

function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const block of source.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const entry of (block[1] as string).split(',')) {
      const name = entry.trim().replace(/^type\s+/, '');
      if (name !== '') names.push(name);
    }
  }
  return names.sort();
}

describe('@milpa/core', () => {
  describe('surface', () => {
    it('exports exactly these run-time values', () => {
      expect(Object.keys(core).sort()).toMatchInlineSnapshot(`
        [
          "ApprovalBinding",
          "ApprovalPolicy",
          "ApprovalVerdict",
          "CALL_OUTCOME_KINDS",
          "DEFAULT_TOOL_TIMEOUT_MS",
          "ExpiringMap",
          "GovernanceEvents",
          "INVOCATION_CODE_MAX_LENGTH",
          "INVOCATION_TARGET_ID_MAX_LENGTH",
          "IN_BAND_CONTROL_KEYS",
          "InterceptionSlot",
          "InvocationDecision",
          "InvocationHistory",
          "InvocationOutcome",
          "ListenerPriority",
          "MilpaError",
          "RateLimitResult",
          "TOOL_OPTION_KEYS",
          "ToolContext",
          "ToolDenialReason",
          "ToolDeniedEvent",
          "ToolErrorCode",
          "ToolEvents",
          "ToolExecutedEvent",
          "ToolExecutingEvent",
          "ToolFailedEvent",
          "ToolInvocationDeniedEvent",
          "ToolResult",
          "Type",
          "VerificationApprovalRecordedEvent",
          "VerificationContext",
          "VerificationEvents",
          "VerificationGrantedEvent",
          "VerificationRejectedEvent",
          "VerificationRequest",
          "VerificationRequestedEvent",
          "VerificationResult",
          "VerificationStatus",
          "applyVerificationDecision",
          "checkApprovalClaim",
          "completeIdempotencyRecord",
          "decideIdempotencyBegin",
          "defineTool",
          "describeRefusalForModel",
          "digestArguments",
          "generateRandomId",
          "generateRequestId",
          "invocationTarget",
          "isContentBlock",
          "isInvocationCode",
          "isInvocationTarget",
          "isMutatingCall",
          "isToolErrorCode",
          "isWaitingForPerson",
          "mayReleaseIdempotencyRecord",
          "mutabilityOf",
          "normalizeToolDefinition",
          "outcomeKindOf",
          "readDeclaredTools",
          "readInBandControls",
          "silentLogger",
          "tool",
          "unsupportedCaller",
        ]
      `);
    });

    it('names exactly these exports, types included, in src/index.ts', () => {
      expect(exportedNames(SOURCES['./index.ts'] as string)).toMatchInlineSnapshot(`
        [
          "AnyToolDefinition",
          "ApprovalBinding",
          "ApprovalBindingOpening",
          "ApprovalBindingOptions",
          "ApprovalBindingRedemption",
          "ApprovalBindingRefusal",
          "ApprovalBindingScope",
          "ApprovalClaim",
          "ApprovalGate",
          "ApprovalPendingOutcome",
          "ApprovalPolicy",
          "ApprovalRedemption",
          "ApprovalRefusal",
          "ApprovalRequest",
          "ApprovalResolution",
          "ApprovalSettlement",
          "ApprovalStore",
          "ApprovalSuspendOptions",
          "ApprovalVerdict",
          "ApprovalVerdictKind",
          "AudioContentBlock",
          "BoundToolCall",
          "CALL_OUTCOME_KINDS",
          "CallOutcome",
          "CallOutcomeKind",
          "CallerCapabilities",
          "CallerLogLevel",
          "ChannelRenderer",
          "ClampRule",
          "ClampSpec",
          "ConfirmationBinding",
          "ConfirmationRequiredOutcome",
          "ConfirmationStore",
          "ConfirmationToken",
          "ContentBlock",
          "DEFAULT_TOOL_TIMEOUT_MS",
          "DefineToolOptions",
          "ElicitationOutcome",
          "ElicitationRequest",
          "EmbeddedResourceContentBlock",
          "EventDispatcher",
          "EventListener",
          "EventPayload",
          "ExecutedOutcome",
          "ExpiringMap",
          "ExpiringMapOptions",
          "FailedOutcome",
          "FieldProblemForModel",
          "GovernanceEventName",
          "GovernanceEvents",
          "GovernedCallOptions",
          "GovernedPlan",
          "GovernedPlanStep",
          "GovernedToolRegistry",
          "INVOCATION_CODE_MAX_LENGTH",
          "INVOCATION_TARGET_ID_MAX_LENGTH",
          "IN_BAND_CONTROL_KEYS",
          "IdempotencyBegin",
          "IdempotencyClaim",
          "IdempotencyRecord",
          "IdempotencyStore",
          "ImageContentBlock",
          "InBandControlKey",
          "InBandControlPolicy",
          "InBandControlRefusal",
          "InBandControls",
          "InBandControlsRead",
          "InFlightInvocation",
          "InterceptionSlot",
          "Invocation",
          "InvocationDecision",
          "InvocationHistory",
          "InvocationHistoryStore",
          "InvocationObservation",
          "InvocationObservationFilter",
          "InvocationOutcome",
          "InvocationRequest",
          "InvocationReservation",
          "InvocationRule",
          "InvocationTarget",
          "JsonSchema",
          "ListenerPriority",
          "LlmMessage",
          "LlmResponse",
          "LlmService",
          "LlmToolCall",
          "LogContext",
          "LogLevel",
          "Logger",
          "MilpaError",
          "MilpaErrorOptions",
          "MutabilitySubject",
          "Pagination",
          "PendingApproval",
          "PlannedOutcome",
          "PolicyRule",
          "PolicyRuleProvider",
          "RandomIdFormat",
          "RateLimitResult",
          "RateLimiter",
          "RefusalForModel",
          "RefusalName",
          "RefusedOutcome",
          "ReplayedOutcome",
          "ResourceLinkContentBlock",
          "SamplingOutcome",
          "SamplingRequest",
          "Static",
          "TOOL_OPTION_KEYS",
          "TObject",
          "TSchema",
          "TargetResolver",
          "TextContentBlock",
          "TidiedArgument",
          "TidyAction",
          "ToolArgs",
          "ToolCaller",
          "ToolContext",
          "ToolContextInit",
          "ToolContextJson",
          "ToolDecoratorCompilation",
          "ToolDecoratorOptions",
          "ToolDefinition",
          "ToolDenialReason",
          "ToolDeniedEvent",
          "ToolErrorCode",
          "ToolEventName",
          "ToolEvents",
          "ToolExecutedEvent",
          "ToolExecutingEvent",
          "ToolFailedEvent",
          "ToolHandler",
          "ToolInvocation",
          "ToolInvocationDeniedEvent",
          "ToolMode",
          "ToolMutability",
          "ToolMutating",
          "ToolOptions",
          "ToolProvider",
          "ToolRegistry",
          "ToolResult",
          "ToolResultJson",
          "ToolResultMeta",
          "ToolRouting",
          "ToolSummary",
          "Type",
          "VerificationApproval",
          "VerificationApprovalRecordedEvent",
          "VerificationContext",
          "VerificationDecision",
          "VerificationDecisionOutcome",
          "VerificationEventName",
          "VerificationEvents",
          "VerificationGrantedEvent",
          "VerificationRecord",
          "VerificationRefusal",
          "VerificationRejectedEvent",
          "VerificationRequest",
          "VerificationRequestedEvent",
          "VerificationResult",
          "VerificationResultJson",
          "VerificationStatus",
          "VerificationStore",
          "Verifier",
          "applyVerificationDecision",
          "checkApprovalClaim",
          "completeIdempotencyRecord",
          "decideIdempotencyBegin",
          "defineTool",
          "describeRefusalForModel",
          "digestArguments",
          "generateRandomId",
          "generateRequestId",
          "invocationTarget",
          "isContentBlock",
          "isInvocationCode",
          "isInvocationTarget",
          "isMutatingCall",
          "isToolErrorCode",
          "isWaitingForPerson",
          "mayReleaseIdempotencyRecord",
          "mutabilityOf",
          "normalizeToolDefinition",
          "outcomeKindOf",
          "readDeclaredTools",
          "readInBandControls",
          "silentLogger",
          "tool",
          "unsupportedCaller",
        ]
      `);
    });
  });

  describe('dependencies', () => {
    it('reads the sources it checks', () => {
      expect(Object.keys(SOURCES)).toContain('./index.ts');
      expect(Object.keys(SOURCES)).toContain('./tools/define-tool.ts');
      expect(
        importedSpecifiers(
          "import { a } from 'x';\nexport { b } from './y.js';\nimport 'z';\nawait import('w');\n/** import 'c' from 'c' */",
        ),
      ).toEqual(['x', './y.js', 'z', 'w']);
    });

    it('has no file that imports a node: module', () => {
      const offenders = Object.entries(SOURCES).flatMap(([file, source]) =>
        importedSpecifiers(source)
          .filter((specifier) => specifier.startsWith('node:'))
          .map((specifier) => `${file} -> ${specifier}`),
      );

      expect(offenders).toEqual([]);
    });

    it('imports no package but typebox from its library code', () => {
      const offenders = Object.entries(SOURCES)
        .filter(([file]) => !file.endsWith('.test.ts'))
        .flatMap(([file, source]) =>
          importedSpecifiers(source)
            .filter((specifier) => !specifier.startsWith('./') && !specifier.startsWith('../') && specifier !== 'typebox')
            .map((specifier) => `${file} -> ${specifier}`),
        );

      expect(offenders).toEqual([]);
    });

    it('imports only typebox, vitest and the pino dev dependency from its tests', () => {
      const allowed = new Set(['typebox', 'vitest', 'pino', '../package.json']);
      const offenders = Object.entries(SOURCES)
        .filter(([file]) => file.endsWith('.test.ts'))
        .flatMap(([file, source]) =>
          importedSpecifiers(source)
            .filter((specifier) => !specifier.startsWith('./') && !(specifier.startsWith('../') && specifier.endsWith('.js')))
            .filter((specifier) => !allowed.has(specifier))
            .map((specifier) => `${file} -> ${specifier}`),
        );

      expect(offenders).toEqual([]);
    });

    it('declares typebox as its only run-time dependency', () => {
      expect(Object.keys(packageJson.dependencies)).toEqual(['typebox']);
      expect(packageJson).not.toHaveProperty('peerDependencies');
      expect(packageJson).not.toHaveProperty('optionalDependencies');
    });
  });
});
