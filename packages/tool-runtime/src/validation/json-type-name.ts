/**
 * The JSON Schema type name of a value, for messages: `integer`, `number`, `string`, `boolean`,
 * `array`, `object`, `null`; non-finite numbers are named `NaN` / `Infinity` (JSON has neither), and
 * values JSON cannot carry keep their JavaScript name (`undefined`, `bigint`, `function`, `symbol`).
 */
export function jsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  if (type === 'number') {
    const number = value as number;
    if (Number.isNaN(number)) return 'NaN';
    if (!Number.isFinite(number)) return number > 0 ? 'Infinity' : '-Infinity';
    return Number.isInteger(number) ? 'integer' : 'number';
  }
  return type;
}
