import {
  ToolErrorCode,
  ToolResult,
  isMutatingCall,
  mutabilityOf,
  type ConfirmationBinding,
  type ConfirmationToken,
  type ToolArgs,
} from '@milpa/core';
import { formatExpiresAt } from '../../confirmation/format-expires-at.js';
import type { ChannelPolicy } from '../../policy/channel-policy.js';
import { describeActionSummary } from '../action-summary.js';
import { confirmationOutcome } from '../call-outcomes.js';
import { isResuming, presentedConfirmToken } from '../control-values.js';
import { describeStep } from '../describe-step.js';
import { freezeArgs } from '../freeze-args.js';
import { describeTidiedArguments } from '../tidied-arguments.js';
import { isPlainArgs, isPromiseLike } from '../settle.js';
import type { STOP, Stage, StageSubject, StageVerdict, ValidatedCall } from '../stage.js';
import type { InvocationStepInit } from '../../inspection/invocation-step.js';

const INVALID_TOKEN_MESSAGE = 'Invalid or expired confirmation token';

function tokenIssued(call: ValidatedCall, token: ConfirmationToken): typeof STOP {
  const expiresAt = formatExpiresAt(token.expiresAt);
  const outcome = confirmationOutcome(token.token, token.actionSummary, expiresAt);
  const result = new ToolResult(
    true,
    {
      requires_confirmation: true,
      confirm_token: token.token,
      action_summary: token.actionSummary,
      expires_at: expiresAt,
    },
    token.actionSummary,
    null,
    { ...call.reportingMeta(), type: 'confirmation', requires_confirmation: true },
    outcome,
  );
  return call.end(result, outcome);
}

function redeemed(call: ValidatedCall, args: ToolArgs | null | undefined): undefined | typeof STOP {
  // Only an object is redeemed arguments: `undefined` (a store's `map.get()` miss) or any other
  // value means no such token, never a call that runs without its confirmation.
  if (!isPlainArgs(args)) return call.refuse(ToolErrorCode.VALIDATION_ERROR, INVALID_TOKEN_MESSAGE, 'invalid_token');
  // The first call's validated arguments win; the replay's other arguments are inert. A store may
  // hand back any object (a shared store deserializes it), so it is copied and frozen again.
  const redeemedArgs = freezeArgs(args);
  call.args = redeemedArgs;
  // The redeemed arguments are the ones that execute: a per-call tool is asked once for them too,
  // and the call stays mutating if either answer says so (what follows, e.g. an approval, must
  // not see a replay's harmless arguments in place of the confirmed ones).
  const tool = call.entry.definition;
  if (!call.mutating && typeof tool.mutating === 'function') call.mutating = isMutatingCall(tool, redeemedArgs);
  return undefined;
}

function describeConfirm(tool: StageSubject['tool'], policy: ChannelPolicy): InvocationStepInit {
  if (tool.requiresConfirmation) {
    return describeStep(
      'confirm',
      'branch',
      'conditional',
      true,
      false,
      'tool.requiresConfirmation → a call without confirm_token returns ' +
        "a token instead of executing; the replay runs the first call's args",
    );
  }
  const forMutating = policy.require_confirmation_for_mutating === true;
  const mutability = mutabilityOf(tool);
  if (forMutating && mutability === 'depends_on_arguments') {
    return describeStep(
      'confirm',
      'branch',
      'conditional',
      true,
      false,
      'channel policy require_confirmation_for_mutating + tool.mutating depends on arguments → a call whose arguments make it ' +
        'mutating, without confirm_token, returns a token instead of executing',
    );
  }
  if (forMutating && mutability === 'mutating') {
    return describeStep(
      'confirm',
      'branch',
      'conditional',
      true,
      false,
      'channel policy require_confirmation_for_mutating + tool.mutating → a call without confirm_token returns a token instead ' +
        'of executing (although the tool does not ask for it)',
    );
  }
  if (forMutating) {
    return describeStep(
      'confirm',
      'branch',
      'dormant',
      false,
      false,
      'channel policy require_confirmation_for_mutating exists, but mutating=false makes it impossible',
    );
  }
  return describeStep(
    'confirm',
    'branch',
    'dormant',
    false,
    false,
    'neither tool.requiresConfirmation nor channel policy require_confirmation_for_mutating applies',
  );
}

/**
 * When the tool or the channel asks for confirmation: a call without a `confirmToken` option mints a
 * one-use token bound to the caller's principal and channel and returns it instead of running (its
 * action summary lists, redacted, what argument tidying changed); a
 * call with a valid token runs the first call's arguments; any other token is refused. A store
 * that throws or rejects refuses the call (fail-closed).
 */
export const confirmStage: Stage = {
  name: 'confirm',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'confirmation store',
  refusesOnAbort: true,
  run(call: ValidatedCall): StageVerdict {
    // A resume of a held call was confirmed before it was held: the approval stands for it.
    if (!call.needsConfirmation || isResuming(call)) return undefined;
    const tool = call.entry.definition;
    const services = call.services;
    const binding: ConfirmationBinding = { principal: call.context.principal, channel: call.context.channel };
    const presented = presentedConfirmToken(call);
    if (presented === undefined) {
      const summary = describeActionSummary(tool.name, call.args, services.audit.redactor, tool.inputSchema, describeTidiedArguments(call));
      const token = services.confirmationStore.create(tool.name, call.args, summary, binding);
      if (isPromiseLike<ConfirmationToken>(token)) return token.then((issued) => tokenIssued(call, issued));
      return tokenIssued(call, token);
    }
    if (typeof presented !== 'string') return redeemed(call, null);
    const args = services.confirmationStore.consume(presented, tool.name, binding);
    if (isPromiseLike<ToolArgs | null>(args)) return args.then((answer) => redeemed(call, answer));
    return redeemed(call, args);
  },
  describe({ tool, channelPolicy }) {
    return [describeConfirm(tool, channelPolicy)];
  },
};
