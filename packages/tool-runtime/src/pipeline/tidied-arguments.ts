import type { TidiedArgument } from '@milpa/core';
import { isRecord } from '@milpa/core/kit';
import { presentedConfirmToken } from './control-values.js';
import type { ValidatedCall } from './stage.js';

const NONE: readonly TidiedArgument[] = Object.freeze([]);

/**
 * What argument tidying changed in a call that is about to be shown to a person (a confirmation
 * summary, an approval request): one entry per change, with the value the caller sent and the one
 * that will execute, both through the registry's redactor (a secret shows the placeholder). Empty
 * when tidying changed nothing, and for a confirmation replay, whose arguments are the first call's
 * (the person saw that call's changes when it was confirmed).
 */
export function describeTidiedArguments(call: ValidatedCall): readonly TidiedArgument[] {
  const changes = call.tidied;
  if (changes === null) return NONE;
  if (call.needsConfirmation && presentedConfirmToken(call) !== undefined) return NONE;
  const redactor = call.services.audit.redactor;
  const schema = call.entry.definition.inputSchema;
  const sent = redactor.redact(call.rawArgs, schema);
  const now = redactor.redact(call.args, schema);
  const sentArgs = isRecord(sent) ? sent : {};
  const nowArgs = isRecord(now) ? now : {};
  return Object.freeze(
    changes.map(({ field, action }) => {
      const present = Object.hasOwn(nowArgs, field);
      return Object.freeze({ field, action, sent: sentArgs[field], present, value: present ? nowArgs[field] : undefined });
    }),
  );
}
