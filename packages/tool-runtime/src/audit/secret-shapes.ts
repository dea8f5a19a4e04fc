// Secrets recognised by their shape in free text, whatever field or message carries them. Internal
// to the audit: the redactor runs `scrubShapes` on every string value it copies and on every text it
// scrubs.
//
// No maintained pattern set fitted (the secretlint rule packages keep their expressions inside
// rule objects that need secretlint's own runner, and their current releases need Node 22), so the
// expressions below are written here from the formats their vendors publish:
// - GitHub: "Behind GitHub's new authentication token formats" (github.blog, 2021): `ghp_`, `gho_`,
//   `ghu_`, `ghs_`, `ghr_` and a base62 body; fine-grained tokens start `github_pat_`.
// - OpenAI: API keys start `sk-` (project keys `sk-proj-`, service accounts `sk-svcacct-`, admin
//   keys `sk-admin-`); Anthropic keys start `sk-ant-`.
// - Slack: "Token types" (api.slack.com): `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, app tokens `xapp-`.
// - AWS: "IAM identifiers, unique ID prefixes" (docs.aws.amazon.com): access key ids are 20
//   characters starting `AKIA` (long-term), `ASIA` (temporary), `ABIA` or `ACCA`.
// - JWT: RFC 7519 compact serialization, base64url parts joined by dots; the header is JSON, so it
//   starts `eyJ` (`{"`).
// - Bearer and Basic credentials: RFC 6750 and RFC 7617 (the token68 alphabet of RFC 7235).
// - PEM private keys: RFC 7468 (`-----BEGIN … PRIVATE KEY-----`), OpenSSH and PGP blocks alike.
// - URL userinfo: RFC 3986 section 3.2.1 (`scheme://user:password@host`).

import { REDACTED } from './redacted.js';
import { SecretNames } from './secret-names.js';

/** Parameter names that mean a secret in a `name=value` pair besides the field names (`X-Amz-Signature`, Google's `key`, `sig`). */
const PARAMETER_NAMES = new SecretNames(['key', 'sig', 'signature']);

/**
 * One cheap scan before the real ones: text without any of these cannot hold a shape below, so
 * plain strings (names, ids, paths, prose) pay for this test only.
 */
const PREFILTER = /[=:]|eyJ|-----BEGIN|gh[pousr]_|github_pat_|sk-|xox[abprs]-|xapp-|A(?:KI|SI|BI|CC)A|[Bb]earer|[Bb]asic|BEARER|BASIC/;

/** A PEM private key block, to its END line, or to the end of the text when that line is missing. */
const PEM_PRIVATE_KEY = /-----BEGIN[A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY[A-Z ]*-----|[\s\S]*$)/g;

/** `scheme://userinfo@`: the userinfo goes, scheme and host stay. */
const URL_USERINFO = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^\s/?#"'<>\\`]+@/g;

/**
 * `Bearer x` and `Basic x`: a token68 credential of at least 8 characters that looks like one (a
 * digit, a lower-case letter before a capital, or one of `+/_~=`), so prose ("Basic authentication")
 * stays readable.
 */
const SCHEME_CREDENTIAL =
  /\b([Bb]earer|[Bb]asic|BEARER|BASIC)(\s+)(?=[A-Za-z0-9\-._~+/]*(?:\d|[a-z][A-Z]|[+/_~=]))[A-Za-z0-9\-._~+/]{8,}=*/g;

/** Token formats with a fixed prefix (see the sources at the top of this file), and JWTs. */
const KNOWN_TOKENS = new RegExp(
  [
    'gh[pousr]_[A-Za-z0-9]{20,}',
    'github_pat_[A-Za-z0-9_]{20,}',
    'sk-(?:proj|svcacct|admin|ant)-[A-Za-z0-9_-]{20,}',
    'sk-[A-Za-z0-9]{20,}',
    'xox[abprs]-[A-Za-z0-9-]{10,}',
    'xapp-[A-Za-z0-9-]{10,}',
    '(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}(?![A-Za-z0-9])',
    'eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*(?:\\.[A-Za-z0-9_-]*){0,2}',
  ]
    .map((pattern) => `(?<![A-Za-z0-9])${pattern}`)
    .join('|'),
  'g',
);

/**
 * `name=` in `name=value` pairs (URL query parameters, form bodies, cookies, logfmt; the whole run of
 * name characters before `=` is the name), and the value after it, quoted or up to the next separator. The value goes when the name means a
 * secret (as a field name, or `key`, `sig`, `signature`).
 */
const EQUALS_NAME = /(?<![A-Za-z0-9_.\-[\]%])([A-Za-z0-9_.\-[\]%]+)=/g;
const EQUALS_VALUE = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^&#;\s"'<>\\]*/y;

/**
 * `name:` in `name: value` (HTTP headers, YAML, object literals in messages), and the value after
 * it, quoted or to the end of the line or the next `,` `;` `&`. The value goes when the name means a
 * secret as a field name.
 */
const COLON_NAME = /(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]*):(?![ \t]*\/\/)[ \t]*/g;
const COLON_VALUE = /"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|[^\r\n,;&"'<>\\]*/y;

/** `"name":` in JSON text, and the string or number after it (nothing for an object or list), which goes when the name means a secret. */
const JSON_NAME = /"([^"\\]+)"\s*:\s*/g;
const JSON_VALUE = /"(?:[^"\\]|\\.)*"|-?\d[\d.eE+-]*|/y;

/** Decides whether a field or parameter name means a secret. */
export type SecretNameTest = (name: string) => boolean;

/** `name` with its `%XX` escapes decoded, or as it is when they are malformed. */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * `text` with the value after each secret name found by `names` (its first group the name, the
 * match ending where the value starts) replaced by `marker`. A value is read (with the sticky
 * `values`) only after a secret name, and the search goes on right after a public name's separator,
 * so a secret nested in a public value (`next="https://…?token=…"`) is found and the text is read
 * once.
 */
const ALREADY_REDACTED = /^"?\*\*\*REDACTED\*\*\*"?[,;)\]}]*$/;

function redactPairs(text: string, names: RegExp, values: RegExp, isSecret: SecretNameTest, marker: string): string {
  let result = '';
  let copied = 0;
  names.lastIndex = 0;
  for (let found = names.exec(text); found !== null; found = names.exec(text)) {
    if (!isSecret(found[1] as string)) continue;
    const start = names.lastIndex;
    values.lastIndex = start;
    const value = (values.exec(text) as RegExpExecArray)[0];
    // Empty, or already redacted (closing punctuation after the marker is the text's own: a summary's `, ` or `)`).
    if (value === '' || ALREADY_REDACTED.test(value)) continue;
    result += text.slice(copied, start) + marker;
    copied = start + value.length;
    names.lastIndex = copied;
  }
  return result + text.slice(copied);
}

/** A host pattern's match, redacted (an empty match stays empty). */
function redactMatch(found: string): string {
  return found === '' ? '' : REDACTED;
}

/**
 * `text` with every secret recognised by its shape replaced by the redaction marker, the parts that
 * say what it was (a URL's scheme and host, a scheme word, a parameter name) kept; then each of the
 * host's `patterns` (global expressions) replaced. Throws only if a host pattern does.
 */
export function scrubShapes(text: string, isSecretName: SecretNameTest, patterns: readonly RegExp[]): string {
  let result = text;
  // Stryker disable next-line ConditionalExpression: equivalent: the prefilter only skips scans that would find nothing.
  if (PREFILTER.test(result)) {
    result = result
      .replace(PEM_PRIVATE_KEY, REDACTED)
      .replace(URL_USERINFO, `$1${REDACTED}@`)
      .replace(SCHEME_CREDENTIAL, `$1$2${REDACTED}`)
      .replace(KNOWN_TOKENS, REDACTED);
    const isSecretParameter = (name: string): boolean => {
      const decoded = decodedName(name);
      return isSecretName(decoded) || PARAMETER_NAMES.matches(decoded);
    };
    result = redactPairs(result, EQUALS_NAME, EQUALS_VALUE, isSecretParameter, REDACTED);
    result = redactPairs(result, COLON_NAME, COLON_VALUE, isSecretName, REDACTED);
    result = redactPairs(result, JSON_NAME, JSON_VALUE, isSecretName, `"${REDACTED}"`);
  }
  for (let index = 0; index < patterns.length; index++) {
    result = result.replace(patterns[index] as RegExp, redactMatch);
  }
  return result;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * `text` with every occurrence of each non-empty secret (and its JSON-escaped form) replaced by the
 * redaction marker, longer secrets first. Throws only if `text` cannot be turned into a string.
 */
export function scrubLiterals(text: string, secrets: readonly string[]): string {
  // Most texts are scrubbed with no secret at all: no set, no pattern.
  if (secrets.length === 0) return String(text);
  const variants = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    variants.add(secret);
    const escaped = JSON.stringify(secret).slice(1, -1);
    // Stryker disable next-line ConditionalExpression: equivalent: adding the secret itself again leaves the set as it is.
    if (escaped !== secret) variants.add(escaped);
  }
  if (variants.size === 0) return String(text);
  const pattern = [...variants]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  return String(text).replace(new RegExp(pattern, 'g'), REDACTED);
}
