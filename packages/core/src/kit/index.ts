// @milpa/core/kit: the small helpers Milpa's own packages share, so each has one home.
// Canonical JSON, deep freezing, record checks, the text of a thrown value, text cut for logs, which
// input fields are secret (by name and by schema), and the JSON shapes durable stores keep records in.

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
export {
  readVerificationRecordJson,
  verificationRecordToJson,
  type VerificationRecordJson,
  type VerificationRecordRead,
} from './verification-record-json.js';
export { idempotencyRecordToJson, readIdempotencyRecordJson, type IdempotencyRecordJson } from './idempotency-record-json.js';
export { isApprovalSettlement, isUnredeemedHeldCall } from './held-call-checks.js';
export { fromPlainJsonText, toPlainJsonText } from './plain-json-text.js';
export { checkRateLimitArguments } from './rate-limit-arguments.js';
