import { ToolErrorCode, mutabilityOf, type RateLimitResult, type ToolContext } from '@milpa/core';
import { rateLimitKey } from '../../rate-limiting/rate-limit-key.js';
import { describeStep } from '../describe-step.js';
import type { RegisteredTool } from '../registered-tool.js';
import { isPromiseLike } from '../settle.js';
import type { STOP, Stage, StageVerdict, ValidatedCall } from '../stage.js';

/** `rateLimitKey(channel, principal, tool)`, memoized for the tool's last caller. */
function keyOf(entry: RegisteredTool, context: ToolContext): string {
  const memo = entry.rateLimitKey;
  if (memo !== null && memo.channel === context.channel && memo.principal === context.principal) return memo.key;
  const key = rateLimitKey(context.channel, context.principal, entry.definition.name);
  entry.rateLimitKey = { channel: context.channel, principal: context.principal, key };
  return key;
}

function apply(call: ValidatedCall, verdict: RateLimitResult): undefined | typeof STOP {
  // Only a boolean decides: a truthy '0' or 1 passed through by an adapter must not let a call run.
  if (typeof verdict?.allowed !== 'boolean') {
    return call.failClosed('rate limiter', new Error('it returned a malformed verdict (allowed must be a boolean)'));
  }
  if (verdict.allowed) return undefined;
  call.denial = 'rate_limited';
  return call.refuse(ToolErrorCode.RATE_LIMITED, verdict.reason ?? 'Rate limit exceeded', 'rate_limited', {
    retry_after_seconds: verdict.retryAfterSeconds ?? 0,
  });
}

/**
 * Charges the call to the limiter's bucket for `channel:principal:tool` (a mutating call costs
 * more: the tool's flag, or its per-call answer for these arguments); an empty bucket returns `RATE_LIMITED` with `retry_after_seconds`. A
 * limiter that throws, rejects or answers something malformed refuses the call (fail-closed). Skipped without a limiter.
 */
export const rateLimitStage: Stage = {
  name: 'rate_limit',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'rate limiter',
  refusesOnAbort: true,
  run(call: ValidatedCall): StageVerdict {
    const services = call.services;
    const limiter = services.rateLimiter;
    if (limiter === null) return undefined;
    const entry = call.entry;
    const settings = services.rateLimit;
    const verdict = limiter.consume(
      keyOf(entry, call.context),
      call.mutating ? settings.mutatingCost : settings.cost,
      settings.windowSeconds,
      settings.maxTokens,
    );
    if (isPromiseLike<RateLimitResult>(verdict)) return verdict.then((answer) => apply(call, answer));
    return apply(call, verdict);
  },
  describe({ tool, wiring }) {
    const state = wiring.hasRateLimiter ? 'present' : 'absent';
    const mutability = mutabilityOf(tool);
    const cost =
      mutability === 'depends_on_arguments'
        ? `mutating depends on arguments → cost ${wiring.costs.mutating} or ${wiring.costs.call} per call`
        : `mutating=${String(mutability === 'mutating')} → cost ${wiring.costOf(mutability === 'mutating')}`;
    const source =
      `host wiring: rateLimiter ${state}; cost mutating ? ${wiring.costs.mutating} : ${wiring.costs.call} ` +
      `(${cost}); key channel:principal:tool`;
    return [describeStep('rate_limit', 'guard', wiring.hasRateLimiter ? 'active' : 'skipped', true, false, source)];
  },
};
