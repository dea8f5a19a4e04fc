import { DemoUsageError } from './demo-usage-error.js';

const EXAMPLE = `--args '{"page":2}'`;

/**
 * The `--args` option as a JSON object. Anything else — text that is not JSON, or JSON that is an
 * array, a string, a number or null — is a {@link DemoUsageError} (`INVALID_ARGS`) with a one-line
 * message and an example.
 *
 * @example
 * parseToolArgs('{"id":3}'); // { id: 3 }
 * parseToolArgs('{id:3}');   // throws DemoUsageError: invalid JSON in --args: …
 */
export function parseToolArgs(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new DemoUsageError(`invalid JSON in --args: ${reason}`, `pass a JSON object in single quotes, e.g. ${EXAMPLE}`, 'INVALID_ARGS');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new DemoUsageError(
      `--args must be a JSON object, got ${kind}`,
      `wrap the arguments in an object, e.g. ${EXAMPLE}`,
      'INVALID_ARGS',
    );
  }
  return value as Record<string, unknown>;
}
