import type { JsonSchema, TSchema } from '@milpa/core';
import { mapStrings } from './map-strings.js';
import { REDACTED, type Redactor } from './redactor.js';

/** A call's secrets with the JSON-escaped form of each, to find quickly which ones a string holds. */
interface SecretSet {
  readonly secrets: readonly string[];
  readonly escaped: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * `text` scrubbed by the redactor, which is handed only the secrets `text` holds (as written or
 * JSON-escaped, the two forms it replaces): a string that holds none costs a substring check per
 * secret instead of a pattern built for it, and still gets the redactor's shape-based scrubbing.
 */
function scrubText(redactor: Redactor, text: string, set: SecretSet): string {
  let held: string[] | null = null;
  for (let index = 0; index < set.secrets.length; index++) {
    const secret = set.secrets[index] as string;
    if (text.includes(secret) || text.includes(set.escaped[index] as string)) (held ??= []).push(secret);
  }
  return redactor.scrub(text, held ?? NONE);
}

/** Every string of a redacted copy scrubbed, keys included; the same object back when nothing changed. */
function scrubStrings(redactor: Redactor, value: unknown, set: SecretSet): unknown {
  const scrub = (text: string): string => (text === REDACTED ? text : scrubText(redactor, text, set));
  return mapStrings(value, { value: scrub, key: (name) => scrubText(redactor, name, set) });
}

/**
 * The view of a call's arguments that any sink may receive (audit records and lines, events after
 * execution, approval payloads, confirmation summaries): the redactor's copy, in which secret fields
 * are replaced and `_ctx` is dropped, with every string in it — keys included — scrubbed as well.
 * So a secret repeated under an ordinary name (`note: "my password is hunter2"`), or a value the
 * redactor recognises by its shape, does not get through either. `secrets` are the call's secret
 * values (collected from `value` when not given). Never throws: if anything fails, the whole view
 * is {@link REDACTED}.
 *
 * @example
 * redactForSink(new Redactor(), { password: 'hunter2', note: 'pw hunter2' });
 * // { password: '***REDACTED***', note: 'pw ***REDACTED***' }
 */
export function redactForSink(
  redactor: Redactor,
  value: unknown,
  schema: JsonSchema | TSchema | null = null,
  secrets: readonly string[] = redactor.collectSecrets(value, schema),
): unknown {
  try {
    const usable = secrets.filter((secret) => typeof secret === 'string' && secret !== '');
    const set: SecretSet = { secrets: usable, escaped: usable.map((secret) => JSON.stringify(secret).slice(1, -1)) };
    return scrubStrings(redactor, redactor.redact(value, schema), set);
  } catch {
    return REDACTED;
  }
}
