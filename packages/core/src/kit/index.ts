// @milpa/core/kit: the small helpers Milpa's own packages share, so each has one home.
// Canonical JSON, deep freezing, record checks, the text of a thrown value, text cut for logs, and
// which input fields are secret (by name and by schema).

export { canonicalJson } from './canonical-json.js';
export { deepFreeze } from './deep-freeze.js';
export { isRecord } from './is-record.js';
export { messageOf } from './message-of.js';
export { clipText } from './clip-text.js';
export { DEFAULT_SENSITIVE_FIELDS, SecretNames, compactName, nameWords } from './secret-names.js';
export {
  NO_SCHEMAS,
  isSecretSchema,
  itemSchemas,
  propertySchemas,
  schemasOf,
  topLevelSecretsOf,
  type TopLevelSecrets,
} from './schema-secrets.js';
