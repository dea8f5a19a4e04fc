// How a tool's input schema marks properties secret: the rule lives in @milpa/core/kit so the approvals console uses the same one.
export {
  NO_SCHEMAS,
  isSecretSchema,
  itemSchemas,
  propertySchemas,
  schemasOf,
  topLevelSecretsOf,
  type TopLevelSecrets,
} from '@milpa/core/kit';

/** True for any non-null object (arrays included). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
