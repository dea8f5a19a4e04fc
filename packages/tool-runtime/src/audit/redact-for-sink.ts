import type { JsonSchema, TSchema } from '@milpa/core';
import { mapStrings, type StringMapper } from './map-strings.js';
import { REDACTED, type Redactor } from './redactor.js';

/** What the scrubbing walk needs: the redactor, and the call's secrets with the JSON-escaped form of each. */
interface SinkScrub {
  readonly redactor: Redactor;
  readonly secrets: readonly string[];
  readonly escaped: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * `text` scrubbed by the redactor, which is handed only the secrets `text` holds (as written or
 * JSON-escaped, the two forms it replaces): a string that holds none costs a substring check per
 * secret instead of a pattern built for it, and still gets the redactor's shape-based scrubbing.
 */
function scrubText(text: string, scrub: SinkScrub): string {
  let held: string[] | null = null;
  const { secrets, escaped } = scrub;
  for (let index = 0; index < secrets.length; index++) {
    const secret = secrets[index] as string;
    if (text.includes(secret) || text.includes(escaped[index] as string)) (held ??= []).push(secret);
  }
  return scrub.redactor.scrub(text, held ?? NONE);
}

/** Every string of a redacted copy scrubbed, keys included; module-level, so a call builds no closure. */
const SCRUB_STRINGS: StringMapper<SinkScrub> = {
  value: (text, scrub) => (text === REDACTED ? text : scrubText(text, scrub)),
  key: scrubText,
};

/** The usable secrets (non-empty strings); the same list back when all of them are, as they usually are. */
function usableSecrets(secrets: readonly string[]): readonly string[] {
  for (let index = 0; index < secrets.length; index++) {
    const secret = secrets[index];
    if (typeof secret !== 'string' || secret === '') return secrets.filter((each) => typeof each === 'string' && each !== '');
  }
  return secrets;
}

function escapedSecrets(secrets: readonly string[]): readonly string[] {
  if (secrets.length === 0) return NONE;
  const escaped: string[] = [];
  for (const secret of secrets) escaped.push(JSON.stringify(secret).slice(1, -1));
  return escaped;
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
    const usable = usableSecrets(secrets);
    const scrub: SinkScrub = { redactor, secrets: usable, escaped: escapedSecrets(usable) };
    return mapStrings(redactor.redact(value, schema), SCRUB_STRINGS, scrub);
  } catch {
    return REDACTED;
  }
}
