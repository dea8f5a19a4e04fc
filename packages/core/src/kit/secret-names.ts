// Which field names mean "secret". The audit's redactor asks per key (and remembers the verdict), its
// shape scrubber asks per `name=value` pair it finds in text, and the approvals console asks which
// input fields to treat as secret; one rule, so what the log hides the console hides too.
//
// The rule, in the words the redactor's documentation uses:
// - A name is compacted: Unicode-normalized (NFKC), lower-cased, everything but letters and digits
//   removed. `X-Api-Key`, `x_api_key`, `X API KEY` and `xApiKey` all compact to `xapikey`.
// - A sensitive name of five characters or more (compacted) matches anywhere inside the compacted
//   key: `token` matches `github_token`, `sessionToken` and `accesstoken`.
// - A shorter one (`pwd`, a host's `pin`) matches only whole words: the key is split into words at
//   separators, camelCase humps and letter/digit changes, and some run of consecutive words must
//   spell the name (`pwd` matches `db_pwd` and `userPWD`; `pin` does not match `shipping`).
// - One narrow exception: a name caught only by `token` that counts tokens is not secret (see
//   `countsTokens`), so `max_tokens` and `token_count` stay readable.

/**
 * The words that make a field name secret by default. A name means a secret when, lower-cased with
 * everything but letters and digits removed, it contains one of these (`db_password`, `X-Api-Key`,
 * `sessionToken`, `aws_secret_access_key`); `pwd` must be a whole word (`db_pwd`, `userPWD`). A
 * name caught only by `token` that counts tokens (`max_tokens`, `token_count`) is not secret.
 */
export const DEFAULT_SENSITIVE_FIELDS: readonly string[] = Object.freeze([
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'token',
  'api_key',
  'access_key',
  'private_key',
  'credential',
  'session',
  'cookie',
  'authorization',
]);

/** Names shorter than this (compacted) match whole words only; longer ones match anywhere. */
const ANYWHERE_MIN_LENGTH = 5;

const TOKEN = 'token';
/** Words that make `token` or `tokens` a count. */
const COUNT_WORDS: ReadonlySet<string> = new Set([
  'count',
  'counts',
  'limit',
  'limits',
  'budget',
  'usage',
  'max',
  'min',
  'total',
  'num',
  'used',
  'remaining',
]);
/** Words that make the plural `tokens` a count (an `input_token` may be a credential to inspect). */
const PLURAL_COUNT_WORDS: ReadonlySet<string> = new Set(['input', 'output', 'prompt', 'completion', 'reasoning', 'cached']);

/** `name` Unicode-normalized, lower-cased, with only its letters and digits left. */
export function compactName(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

/** The lower-cased words of `name`: split at separators, camelCase humps (`APIKey` → api, key) and letter/digit changes. */
export function nameWords(name: string): string[] {
  return (
    name
      .normalize('NFKC')
      .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
      .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
      .replace(/(\p{L})(\p{N})/gu, '$1 $2')
      .replace(/(\p{N})(\p{L})/gu, '$1 $2')
      .toLowerCase()
      // Stryker disable next-line Regex: equivalent: splitting at each separator instead of each run only adds empty words, which the
      // filter drops.
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word !== '')
  );
}

/** True when some run of consecutive `words` spells `name` (already compacted). */
function spellsWithWords(words: readonly string[], name: string): boolean {
  // Stryker disable next-line EqualityOperator: equivalent: a run starting past the last word spells nothing.
  for (let start = 0; start < words.length; start += 1) {
    let spelled = '';
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent: a run already as long as the name only grows, so going
    // on finds nothing more (the stop bounds the work on hostile keys).
    for (let end = start; end < words.length && spelled.length < name.length; end += 1) {
      spelled += words[end];
      if (spelled === name) return true;
    }
  }
  return false;
}

/**
 * True when `token` in this name counts tokens: every `token` in the compacted name is a whole word
 * `token` or `tokens`, and the name has a counting word (`max_tokens`, `tokenCount`, `token_limit`,
 * `input_tokens`, `tokens_used`). Never true for `tokens` alone, `input_token` or `apitoken_count`.
 */
function countsTokens(compact: string, words: readonly string[]): boolean {
  const tokenWords = words.filter((word) => word === TOKEN || word === 'tokens');
  if (compact.split(TOKEN).length - 1 !== tokenWords.length) return false;
  const plural = tokenWords.includes('tokens');
  return words.some((word) => COUNT_WORDS.has(word) || (plural && PLURAL_COUNT_WORDS.has(word)));
}

/**
 * A set of sensitive names and the rule that matches keys against them (see the top of this file).
 * Holds compacted names; answers are not cached here (the redactor caches per key).
 */
export class SecretNames {
  readonly #anywhere = new Set<string>();
  readonly #wholeWords = new Set<string>();

  /** @param names the sensitive names (a name without a letter or digit never matches; the redactor refuses it). */
  constructor(names: Iterable<string> = []) {
    for (const name of names) this.add(name);
  }

  /** Adds a sensitive name. */
  add(name: string): void {
    const compact = compactName(name);
    (compact.length >= ANYWHERE_MIN_LENGTH ? this.#anywhere : this.#wholeWords).add(compact);
  }

  /** True when `key` means one of the names. */
  matches(key: string): boolean {
    const compact = compactName(key);
    const words = nameWords(key);
    for (const name of this.#wholeWords) if (spellsWithWords(words, name)) return true;
    const found = [...this.#anywhere].filter((name) => compact.includes(name));
    if (found.length === 0) return false;
    return found.some((name) => name !== TOKEN) || !countsTokens(compact, words);
  }
}
