import { ToolErrorCode } from '@milpa/core';
import { cappedSizesOf } from '../../audit/capped-sizes.js';
import { describeStep } from '../describe-step.js';
import type { Stage, StageVerdict, EndedCall } from '../stage.js';

const AUDITED_PATHS = [
  'resolve-miss',
  'validation-failure',
  'authorization-failure',
  'invocation-denial (rule and reason code, no arguments)',
  'rate-limit',
  'host-stage-refusal',
  'plan-mode',
  'confirmation-request',
  'invalid-token',
  'approval-denial',
  'approval-hold',
  'invalid-approval',
  'veto',
  'caller-abort',
  'cache-hit',
  'idempotent-replay',
  'execute-success',
  'execute-failure',
  'timeout',
] as const;

const AUDIT_SOURCE =
  'audits every terminal path, each as a structured record passed to the logger (redacted arguments, outcome, code, took_ms): ' +
  `${AUDITED_PATHS.join(', ')}; nothing returns unaudited, not even a resolve miss`;

/**
 * The one audit exit: every call, whichever stage ended it, leaves exactly one audit record here
 * (a refusal's record names its reason; secrets are redacted). An executed or failed call whose
 * event was dispatched was already recorded by the registry's audit listener during the dispatch.
 */
export const auditExitStage: Stage = {
  name: 'audit',
  phase: 'exit',
  needs: 'result',
  collaborator: 'audit logger',
  refusesOnAbort: false,
  run(call: EndedCall): StageVerdict {
    if (call.audited) return undefined;
    const audit = call.services.audit;
    const { context } = call;
    const name = call.toolName;
    const args = call.auditArgs;
    const result = call.result;
    const tookMs = result.meta['took_ms'] as number;
    // The sizes before the result cap cut it, when it did.
    const sizes = cappedSizesOf(result.meta);
    switch (call.outcome) {
      case 'executed':
        audit.logExecuted(context, name, args, result, call.cacheServed);
        break;
      case 'failed':
        audit.logFailed(context, name, args, call.thrown, tookMs, sizes);
        break;
      case 'not_found':
        audit.logOutcome('not_found', context, name, null, tookMs);
        break;
      case 'validation_failed':
        audit.logValidationFailure(context, name, call.errors, args);
        break;
      case 'auth_denied':
        audit.logAuthFailure(context, name, call.reason ?? 'Forbidden', args);
        break;
      case 'invocation_denied':
        audit.logInvocationDenied(context, name, call.deniedByRule, String(result.meta['reason']), tookMs);
        break;
      case 'rate_limited':
        audit.logRateLimited(context, name, args, call.reason ?? 'Rate limit exceeded', tookMs);
        break;
      case 'plan':
      case 'confirmation_requested':
        audit.logOutcome(call.outcome, context, name, args, tookMs, undefined, undefined, sizes);
        break;
      case 'invalid_token':
      case 'vetoed':
      case 'internal_error':
      case 'approval_denied':
      case 'approval_pending':
      case 'approval_invalid':
      case 'replayed':
        audit.logOutcome(call.outcome, context, name, args, tookMs, call.reason, undefined, sizes);
        break;
      case 'refused':
        audit.logOutcome(
          'refused',
          context,
          name,
          args,
          tookMs,
          call.reason,
          String(result.meta['code'] ?? ToolErrorCode.FORBIDDEN),
          sizes,
        );
        break;
      case 'aborted':
        audit.log(context, name, args, false, ToolErrorCode.TIMEOUT, tookMs);
        break;
      case 'timeout': {
        audit.log(context, name, args, false, ToolErrorCode.TIMEOUT, tookMs);
        const limitSeconds = (call.entry?.definition.timeoutMs ?? 0) / 1000;
        audit.logTimeout(context, name, (performance.now() - call.startedAt) / 1000, limitSeconds);
        break;
      }
      case null:
        break;
    }
    return undefined;
  },
  describe() {
    return [describeStep('audit', 'outcome', 'active', false, false, AUDIT_SOURCE)];
  },
};
