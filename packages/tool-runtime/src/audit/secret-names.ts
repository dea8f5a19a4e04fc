// Which field names mean "secret": the rule lives in @milpa/core/kit so the approvals console uses the same one.
export { DEFAULT_SENSITIVE_FIELDS, SecretNames, compactName, nameWords } from '@milpa/core/kit';
