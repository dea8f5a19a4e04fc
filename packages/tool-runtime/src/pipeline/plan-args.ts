import type { JsonSchema, ToolArgs } from '@milpa/core';
import type { Redactor } from '../audit/redactor.js';

/** Values the arguments may hold before a plan stops returning them verbatim. */
const MAX_VERBATIM_VALUES = 100_000;

/**
 * The `args` of a plan-mode result, which the caller receives as JSON: the arguments themselves when
 * they serialize (anything that came in as JSON does), otherwise the redactor's JSON-safe copy, in
 * which cycles are marked, big integers are strings and extreme depth or size is cut off. Only an
 * in-process caller can pass such an object graph.
 */
export function planArgs(args: ToolArgs, redactor: Redactor, schema: JsonSchema | null): unknown {
  let values = 0;
  try {
    // Counting in the replacer stops one object shared along 2^n paths long before 2^n.
    JSON.stringify(args, (_key, value: unknown) => {
      values += 1;
      if (values > MAX_VERBATIM_VALUES) throw new RangeError('too many values');
      return value;
    });
    return args;
  } catch {
    return redactor.redact(args, schema);
  }
}
