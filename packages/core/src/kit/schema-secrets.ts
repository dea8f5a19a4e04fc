// How a tool's input schema marks properties secret (`writeOnly: true`, `format: 'password'` or
// `'x-milpa-secret': true`, in the schema itself or any `allOf` / `anyOf` / `oneOf` branch). The audit's redactor walks
// these per value and keeps a per-schema summary for its flat-arguments path; the approvals console reads the summary.

/** No schema applies at this level. */
export const NO_SCHEMAS: readonly object[] = Object.freeze([]);

/** True for any non-null object (arrays included). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function ownField(container: unknown, key: string): unknown {
  return isObject(container) && Object.hasOwn(container, key) ? container[key] : undefined;
}

/** The schema and its `allOf` / `anyOf` / `oneOf` branches: a property marked secret in any of them is secret. */
function expand(schema: unknown, into: object[], depth = 0): void {
  if (!isObject(schema) || depth > 8) return;
  into.push(schema);
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const branches = ownField(schema, keyword);
    if (Array.isArray(branches)) for (const branch of branches) expand(branch, into, depth + 1);
  }
}

/** `schema` with its branches, or {@link NO_SCHEMAS} when it is not an object. */
export function schemasOf(schema: unknown): readonly object[] {
  if (!isObject(schema)) return NO_SCHEMAS;
  const found: object[] = [];
  expand(schema, found);
  return found;
}

/** The schemas that apply to property `key` of a value matching `schemas` (declared, else `additionalProperties`). */
export function propertySchemas(schemas: readonly object[], key: string): readonly object[] {
  if (schemas.length === 0) return NO_SCHEMAS;
  const found: object[] = [];
  for (const schema of schemas) {
    const properties = ownField(schema, 'properties');
    const declared = ownField(properties, key);
    if (declared !== undefined) expand(declared, found);
    else expand(ownField(schema, 'additionalProperties'), found);
  }
  return found;
}

/**
 * The schemas that apply to item `index` of an array matching `schemas`: `prefixItems`, else
 * `items`; or, in the older tuple form where `items` is a list, its entry, else `additionalItems`.
 */
export function itemSchemas(schemas: readonly object[], index: number): readonly object[] {
  if (schemas.length === 0) return NO_SCHEMAS;
  const found: object[] = [];
  for (const schema of schemas) {
    const prefixItems = ownField(schema, 'prefixItems');
    const items = ownField(schema, 'items');
    if (Array.isArray(prefixItems)) expand(index < prefixItems.length ? prefixItems[index] : items, found);
    else if (Array.isArray(items)) expand(index < items.length ? items[index] : ownField(schema, 'additionalItems'), found);
    else expand(items, found);
  }
  return found;
}

/** True when any of `schemas` marks its value `writeOnly`, `format: 'password'` or `x-milpa-secret`. */
export function isSecretSchema(schemas: readonly object[]): boolean {
  return schemas.some(
    (schema) =>
      ownField(schema, 'writeOnly') === true || ownField(schema, 'format') === 'password' || ownField(schema, 'x-milpa-secret') === true,
  );
}

/**
 * Which top-level properties a schema marks secret: every property any branch declares, and
 * whether a property no branch declares is secret (through `additionalProperties`).
 */
export interface TopLevelSecrets {
  /** Declared property name → secret by the schema. */
  readonly declared: ReadonlyMap<string, boolean>;
  /** True when an undeclared property is secret by the schema. */
  readonly undeclaredSecret: boolean;
}

const NO_TOP_LEVEL_SECRETS: TopLevelSecrets = Object.freeze({ declared: new Map<string, boolean>(), undeclaredSecret: false });
const summaries = new WeakMap<object, TopLevelSecrets>();

/**
 * The top-level secret properties of `schema`, worked out once per schema object and remembered
 * (a registered tool's schema is read on every audited call; it is not expected to change after
 * registration, just as its compiled validator does not). Deeper levels are not summarized: the
 * redactor walks them with the functions above.
 */
export function topLevelSecretsOf(schema: unknown): TopLevelSecrets {
  if (!isObject(schema)) return NO_TOP_LEVEL_SECRETS;
  const known = summaries.get(schema);
  if (known !== undefined) return known;
  const schemas = schemasOf(schema);
  const declared = new Map<string, boolean>();
  const additional: object[] = [];
  for (const branch of schemas) {
    const properties = ownField(branch, 'properties');
    if (isObject(properties)) for (const key of Object.keys(properties)) declared.set(key, false);
    expand(ownField(branch, 'additionalProperties'), additional);
  }
  for (const key of declared.keys()) declared.set(key, isSecretSchema(propertySchemas(schemas, key)));
  const summary: TopLevelSecrets = Object.freeze({ declared, undeclaredSecret: isSecretSchema(additional) });
  summaries.set(schema, summary);
  return summary;
}
