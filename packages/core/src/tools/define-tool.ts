import type { Static, TObject, TProperties } from 'typebox';
import { MilpaError } from '../errors/milpa-error.js';
import type { AnyToolDefinition, ClampRule, ClampSpec, JsonSchema, ToolDefinition, ToolHandler, ToolRouting } from './tool-definition.js';
import type { ToolMutating } from './tool-mutability.js';

/** Options every tool declaration accepts besides its name, description, input and handler. */
export interface ToolOptions<TArgs = Record<string, unknown>> {
  /** A display title (MCP `title`); defaults to none. */
  readonly title?: string;
  /** Scopes of which the caller needs at least one. */
  readonly scopes?: readonly string[];
  /**
   * The tool changes state: 5× rate cost, `block_mutating` and confirmation policies apply. A
   * function decides per call from the validated arguments (asked once per call); a function that
   * throws or answers anything but a boolean counts as mutating.
   */
  readonly mutating?: ToolMutating<TArgs>;
  /** Every call needs a confirmation round trip. */
  readonly requiresConfirmation?: boolean;
  /** Deadline in milliseconds; default 30 000. */
  readonly timeoutMs?: number;
  /**
   * Return `TIMEOUT` at the deadline. By default the timeout is soft: the handler runs to the end,
   * and a call that overran its deadline keeps its result and is logged as a warning.
   */
  readonly hardTimeout?: boolean;
  /**
   * Clamps applied before validation, by input field: `{ min, max, maxLength }` or `[min, max]`.
   * A clamp on a field the input schema does not declare is rejected.
   */
  readonly clamps?: { readonly [K in keyof TArgs]?: ClampSpec };
  /** The tool's version. */
  readonly version?: string;
  /** The JSON Schema of the result data. */
  readonly outputSchema?: JsonSchema | TObject;
  /** Routing hints (`intents`, `domains`, `tags`, `examples`), each list optional. */
  readonly routing?: Partial<ToolRouting>;
}

/** The argument of {@link defineTool}. */
export interface DefineToolOptions<I extends TObject, TValue> extends ToolOptions<Static<I>> {
  /** Unique name on the wire. */
  readonly name: string;
  /** What the tool does, for people and models. */
  readonly description: string;
  /** A TypeBox object schema; the handler's `args` are typed from it. Default: no arguments. */
  readonly input?: I;
  /** The handler. */
  readonly handler: ToolHandler<Static<I>, TValue>;
}

/** The keys {@link defineTool} accepts; anything else is rejected. */
export const TOOL_OPTION_KEYS = Object.freeze([
  'name',
  'description',
  'input',
  'inputSchema',
  'handler',
  'title',
  'scopes',
  'mutating',
  'requiresConfirmation',
  'timeoutMs',
  'hardTimeout',
  'clamps',
  'version',
  'outputSchema',
  'routing',
] as const);

const KNOWN_KEYS: ReadonlySet<string> = new Set(TOOL_OPTION_KEYS);
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const CLAMP_KEYS: ReadonlySet<string> = new Set(['min', 'max', 'maxLength']);
const ROUTING_KEYS = ['intents', 'domains', 'tags', 'examples'] as const;
const KNOWN_ROUTING_KEYS: ReadonlySet<string> = new Set(ROUTING_KEYS);

const EMPTY_INPUT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/** The default deadline of a tool, in milliseconds: 30 seconds. */
export const DEFAULT_TOOL_TIMEOUT_MS = 30_000;

function fail(name: unknown, message: string): never {
  const label = typeof name === 'string' && name !== '' ? `Tool '${name}'` : 'Tool definition';
  throw new MilpaError(`${label}: ${message}`, { code: 'INVALID_TOOL_DEFINITION' });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function normalizeClamp(toolName: unknown, field: string, spec: unknown): ClampRule {
  if (Array.isArray(spec)) {
    const [min, max] = spec as unknown[];
    if (spec.length !== 2 || typeof min !== 'number' || typeof max !== 'number') {
      fail(toolName, `clamp '${field}' must be [min, max] with two numbers.`);
    }
    return normalizeClamp(toolName, field, { min, max });
  }
  if (!isPlainObject(spec)) fail(toolName, `clamp '${field}' must be { min, max, maxLength } or [min, max].`);
  const unknownKeys = Object.keys(spec).filter((key) => !CLAMP_KEYS.has(key));
  if (unknownKeys.length > 0) {
    fail(toolName, `clamp '${field}' has unknown key(s): ${unknownKeys.join(', ')}. Known keys: min, max, maxLength.`);
  }
  const rule: { min?: number; max?: number; maxLength?: number } = {};
  for (const key of ['min', 'max'] as const) {
    const value = spec[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) fail(toolName, `clamp '${field}.${key}' must be a finite number.`);
    rule[key] = value;
  }
  if (spec['maxLength'] !== undefined) {
    const value = spec['maxLength'];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      fail(toolName, `clamp '${field}.maxLength' must be a non-negative integer.`);
    }
    rule.maxLength = value;
  }
  if (rule.min !== undefined && rule.max !== undefined && rule.min > rule.max) {
    fail(toolName, `clamp '${field}' has min ${rule.min} greater than max ${rule.max}.`);
  }
  if (Object.keys(rule).length === 0) fail(toolName, `clamp '${field}' sets none of min, max, maxLength.`);
  return Object.freeze(rule);
}

function normalizeRouting(toolName: unknown, routing: unknown): ToolRouting | null {
  if (routing === undefined || routing === null) return null;
  if (!isPlainObject(routing)) fail(toolName, 'routing must be an object of intents, domains, tags and examples.');
  const unknownKeys = Object.keys(routing).filter((key) => !KNOWN_ROUTING_KEYS.has(key));
  if (unknownKeys.length > 0) {
    fail(toolName, `routing has unknown key(s): ${unknownKeys.join(', ')}. Known keys: ${ROUTING_KEYS.join(', ')}.`);
  }
  const lists: Record<string, readonly string[]> = {};
  for (const key of ROUTING_KEYS) {
    const list = routing[key] ?? [];
    if (!Array.isArray(list) || list.some((entry) => typeof entry !== 'string' || entry.trim() === '')) {
      fail(toolName, `routing.${key} must be an array of non-empty strings.`);
    }
    lists[key] = Object.freeze([...(list as string[])]);
  }
  return Object.freeze(lists as unknown as ToolRouting);
}

function normalizeSchema(toolName: unknown, label: string, schema: unknown): JsonSchema {
  if (!isPlainObject(schema)) fail(toolName, `${label} must be a JSON Schema object.`);
  return schema;
}

/**
 * Checks a tool declaration and returns it as a frozen {@link ToolDefinition} with every default
 * filled in. Registries call it on whatever they are given, so a hand-built object gets the same
 * checks as one from {@link defineTool}. `null` counts as absent for the optional values; the input
 * schema is kept by reference (so TypeBox's own metadata survives) and must not be mutated later.
 *
 * @throws MilpaError `INVALID_TOOL_DEFINITION` naming the tool and the offending option.
 */
export function normalizeToolDefinition(declaration: unknown): AnyToolDefinition {
  if (!isPlainObject(declaration)) fail(undefined, 'expected an object.');
  const name = declaration['name'];
  const unknownKeys = Object.keys(declaration).filter((key) => !KNOWN_KEYS.has(key));
  if (unknownKeys.length > 0) {
    fail(name, `unknown option key(s): ${unknownKeys.join(', ')}. Known keys: ${TOOL_OPTION_KEYS.join(', ')}.`);
  }
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    fail(name, 'name must be 1-128 characters of letters, digits, "_", "-" or ".".');
  }
  const description = declaration['description'];
  if (typeof description !== 'string') fail(name, 'description must be a string.');
  const handler = declaration['handler'];
  if (typeof handler !== 'function') fail(name, 'handler must be a function.');
  if (declaration['input'] !== undefined && declaration['inputSchema'] !== undefined) {
    fail(name, 'give either input or inputSchema, not both.');
  }

  const schemaKey = declaration['input'] === undefined ? 'inputSchema' : 'input';
  const rawSchema = declaration[schemaKey];
  const inputSchema = rawSchema === undefined ? EMPTY_INPUT_SCHEMA : normalizeSchema(name, schemaKey, rawSchema);
  if (inputSchema['type'] !== undefined && inputSchema['type'] !== 'object') {
    fail(name, `input schema must describe an object (type 'object'), got type '${String(inputSchema['type'])}'.`);
  }

  const scopes = declaration['scopes'] ?? [];
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string' || scope === '')) {
    fail(name, 'scopes must be an array of non-empty strings.');
  }

  // Like the other flags, null is not a value here: it would read as "not mutating" by accident.
  const mutating = declaration['mutating'] === undefined ? false : declaration['mutating'];
  if (typeof mutating !== 'boolean' && typeof mutating !== 'function') {
    fail(name, 'mutating must be a boolean or a function of the arguments that returns one.');
  }

  const flags: Record<'requiresConfirmation' | 'hardTimeout', boolean> = {
    requiresConfirmation: false,
    hardTimeout: false,
  };
  for (const key of Object.keys(flags) as (keyof typeof flags)[]) {
    const value = declaration[key];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') fail(name, `${key} must be a boolean.`);
    flags[key] = value;
  }

  const timeoutMs = declaration['timeoutMs'] ?? DEFAULT_TOOL_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    fail(name, 'timeoutMs must be a positive number of milliseconds.');
  }

  const rawClamps = declaration['clamps'] ?? {};
  if (!isPlainObject(rawClamps)) fail(name, 'clamps must be an object keyed by field name.');
  const clamps: Record<string, ClampRule> = {};
  const declared = inputSchema['properties'];
  for (const [field, spec] of Object.entries(rawClamps)) {
    // A clamp on a field the schema does not declare would never apply: say so instead of ignoring it.
    if (isPlainObject(declared) && !Object.hasOwn(declared, field)) {
      fail(name, `clamp '${field}' names no property of the input schema.`);
    }
    clamps[field] = normalizeClamp(name, field, spec);
  }

  const version = declaration['version'] ?? null;
  if (version !== null && typeof version !== 'string') fail(name, 'version must be a string.');
  const title = declaration['title'] ?? null;
  if (title !== null && typeof title !== 'string') fail(name, 'title must be a string.');
  const outputSchema =
    declaration['outputSchema'] === undefined || declaration['outputSchema'] === null
      ? null
      : normalizeSchema(name, 'outputSchema', declaration['outputSchema']);
  const routing = normalizeRouting(name, declaration['routing']);

  return Object.freeze({
    name,
    description,
    title,
    inputSchema,
    handler: handler as AnyToolDefinition['handler'],
    scopes: Object.freeze([...(scopes as string[])]),
    mutating: mutating as AnyToolDefinition['mutating'],
    requiresConfirmation: flags.requiresConfirmation,
    timeoutMs,
    hardTimeout: flags.hardTimeout,
    clamps: Object.freeze(clamps),
    version,
    outputSchema,
    routing,
  });
}

/**
 * Declares a tool. `input` is a TypeBox object schema (plain JSON Schema 2020-12 at runtime), and
 * the handler's `args` are typed from it. Returns plain frozen data; register it on a registry.
 *
 * @throws MilpaError `INVALID_TOOL_DEFINITION` for a bad name, an unknown option key, a malformed
 *   clamp, a non-object input schema and the like.
 *
 * @example
 * import { Type, defineTool } from '@milpa/core';
 *
 * const listNotes = defineTool({
 *   name: 'list_notes',
 *   description: 'List saved notes',
 *   input: Type.Object({ page: Type.Optional(Type.Integer()) }),
 *   scopes: ['notes:read'],
 *   clamps: { page: [1, 1000] },
 *   routing: { intents: ['list'], domains: ['notes'] },
 *   handler: ({ page = 1 }) => ({ notes: [], page }),
 * });
 */
export function defineTool<I extends TObject = TObject<TProperties>, TValue = unknown>(
  options: DefineToolOptions<I, TValue>,
): ToolDefinition<Static<I>, TValue> {
  return normalizeToolDefinition(options) as ToolDefinition<Static<I>, TValue>;
}
