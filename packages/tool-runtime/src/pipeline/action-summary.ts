import type { JsonSchema, TidiedArgument, ToolArgs } from '@milpa/core';
import { redactForSink } from '../audit/redact-for-sink.js';
import type { Redactor } from '../audit/redactor.js';
import { summarizeTidiedArguments } from '../tidying/summarize-tidied-arguments.js';

function formatScalar(value: string | number | boolean): string {
  // Booleans print as 1 and 0, so a summary reads the same whatever language wrote the caller.
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

/**
 * The human-readable summary of a pending confirmation, e.g. `delete_note(id=42, force=1)`: the
 * first three scalar arguments in order, skipping nulls and non-scalars, with secrets redacted
 * (the summary is shown to the caller, kept with the token and written to the audit log). It is
 * built from the arguments' redacted view, and the finished line is scrubbed once more: a secret
 * value repeated under an ordinary name, or shaped like a secret, never shows either. When argument
 * tidying changed the call, the changes follow with their redacted values, so whoever confirms sees
 * that the call differs from what was sent: `search(query=x, limit=20) [tidied: limit bounded (sent 500, now 20)]`.
 */
export function describeActionSummary(
  toolName: string,
  args: ToolArgs,
  redactor: Redactor,
  schema: JsonSchema | null,
  tidied: readonly TidiedArgument[] = [],
): string {
  const secrets = redactor.collectSecrets(args, schema);
  const view = redactForSink(redactor, args, schema, secrets);
  const safe = (typeof view === 'object' && view !== null ? view : {}) as Record<string, unknown>;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(safe)) {
    if (parts.length === 3) break;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      parts.push(`${key}=${formatScalar(value)}`);
    }
  }
  const call = `${toolName}(${parts.join(', ')})`;
  return redactor.scrub(tidied.length === 0 ? call : `${call} [tidied: ${summarizeTidiedArguments(tidied)}]`, secrets);
}
