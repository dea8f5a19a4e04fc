import { MilpaError } from '@milpa/core';

/**
 * Thrown when a tool's JSON Schema cannot be compiled: an unknown (typo'd) keyword, an unknown
 * format, a malformed value. It is a registration-time fault, never a call-time one; the message
 * names the problem and where in the schema it is.
 *
 * @example
 * try {
 *   validator.compile({ type: 'object', properties: { name: { type: 'string', minLenght: 3 } } });
 * } catch (error) {
 *   // InvalidSchemaError: Invalid input schema at #/properties/name: unknown keyword "minLenght" …
 * }
 */
export class InvalidSchemaError extends MilpaError {
  /** The JSON Pointer (`#/properties/name`) of the offending part of the schema, when known. */
  readonly schemaPath: string | null;

  constructor(message: string, options: { readonly schemaPath?: string | null; readonly cause?: unknown } = {}) {
    super(message, { code: 'INVALID_SCHEMA', cause: options.cause });
    this.schemaPath = options.schemaPath ?? null;
  }
}
