import { MilpaError, mutabilityOf, type JsonSchema, type MutabilitySubject, type ToolMutating } from '@milpa/core';
import { SchemaNameCache } from '../budget/schema-name-cache.js';

/** The providers that take OpenAI-style function tools, in lower case. */
export const OPENAI_STYLE_PROVIDERS = Object.freeze(['openai', 'groq', 'gemini', 'mistral', 'ollama', 'deepseek', 'custom'] as const);

/** A provider that takes OpenAI-style function tools. */
export type OpenAiStyleProvider = (typeof OPENAI_STYLE_PROVIDERS)[number];

/**
 * A provider name, compared without regard to case: one of {@link OPENAI_STYLE_PROVIDERS},
 * `anthropic`, `mcp`, or any other name (which gets the Anthropic shape).
 */
export type ProviderName = OpenAiStyleProvider | 'anthropic' | 'mcp' | (string & {});

/** The three wire shapes of a tool: OpenAI function, Anthropic-native, and MCP `tools/list`. */
export type ProviderToolShape = 'openai' | 'anthropic' | 'mcp';

/** How tool descriptions are sent: whole, or only their first non-blank line (to save tokens). */
export type ProviderToolDescriptions = 'full' | 'first-line';

/** Options of {@link toProviderTool} and {@link ProviderToolShapes}. */
export interface ProviderToolOptions {
  /** `full` (default) sends descriptions unchanged; `first-line` sends their first non-blank line, trimmed. */
  readonly descriptions?: ProviderToolDescriptions;
}

/** MCP tool annotations (hints a client may show or act on). */
export interface McpToolAnnotations {
  /** A human-friendly title. */
  readonly title?: string;
  /** The tool changes nothing. */
  readonly readOnlyHint?: boolean;
  /** The tool may destroy or overwrite data. */
  readonly destructiveHint?: boolean;
  /** Calling it twice with the same arguments has no further effect. */
  readonly idempotentHint?: boolean;
  /** The tool reaches outside systems. */
  readonly openWorldHint?: boolean;
}

/**
 * What a tool is shaped from: a registry summary (`getToolSummaries()`), a tool definition, or any
 * object with the same fields. Only `name`, `description` and `inputSchema` are required.
 */
export interface ProviderToolSource {
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The JSON Schema of its arguments. */
  readonly inputSchema: JsonSchema;
  /** A display title (MCP only); null or absent for none. */
  readonly title?: string | null;
  /** The JSON Schema of its result (MCP only, when its root is an object); null or absent for none. */
  readonly outputSchema?: JsonSchema | null;
  /**
   * Whether the tool changes state (a boolean, or a function of the arguments); gives MCP
   * annotations when `annotations` is absent.
   */
  readonly mutating?: ToolMutating<any>;
  /** MCP annotations, sent as given (MCP only). */
  readonly annotations?: McpToolAnnotations;
}

/** The function part of an {@link OpenAiTool}. */
export interface OpenAiToolFunction {
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The JSON Schema of its arguments, an object schema with object `properties`. */
  readonly parameters: JsonSchema;
}

/** A tool as OpenAI-compatible chat APIs take it: `{ type: 'function', function: { name, description, parameters } }`. */
export interface OpenAiTool {
  /** Always `function`. */
  readonly type: 'function';
  /** The function's name, description and parameters. */
  readonly function: OpenAiToolFunction;
}

/** A tool as the Anthropic Messages API takes it: `{ name, description, input_schema }`. */
export interface AnthropicTool {
  /** The tool's name. */
  readonly name: string;
  /** What it does. */
  readonly description: string;
  /** The JSON Schema of its arguments, an object schema with object `properties`. */
  readonly input_schema: JsonSchema;
}

/** A tool as an MCP `tools/list` result lists it. */
export interface McpTool {
  /** The tool's name. */
  readonly name: string;
  /** A display title, when the source has one. */
  readonly title?: string;
  /** What it does. */
  readonly description: string;
  /** The JSON Schema of its arguments, an object schema with object `properties`. */
  readonly inputSchema: JsonSchema;
  /** The JSON Schema of its result, when the source declares one with an object root. */
  readonly outputSchema?: JsonSchema;
  /** Hints for the client, when the source gives annotations or says whether it mutates. */
  readonly annotations?: McpToolAnnotations;
}

/** A tool in any provider's shape. */
export type ProviderTool = OpenAiTool | AnthropicTool | McpTool;

/**
 * The tool shape a provider name gets: `'OpenAI'` → {@link OpenAiTool}, `'mcp'` → {@link McpTool},
 * another literal → {@link AnthropicTool}; a union of names gets the union, a `string` {@link ProviderTool}.
 */
export type ProviderToolFor<P extends string> = P extends unknown
  ? string extends P
    ? ProviderTool
    : Lowercase<P> extends 'mcp'
      ? McpTool
      : Lowercase<P> extends OpenAiStyleProvider
        ? OpenAiTool
        : AnthropicTool
  : never;

const OPENAI_STYLE: ReadonlySet<string> = new Set(OPENAI_STYLE_PROVIDERS);

function invalid(message: string): MilpaError {
  return new MilpaError(`toProviderTool: ${message}`, { code: 'INVALID_ARGUMENT' });
}

/**
 * The shape `provider` takes, ignoring case and surrounding blanks: `openai`, `groq`, `gemini`,
 * `mistral`, `ollama`, `deepseek` and `custom` → `openai`; `mcp` → `mcp`; every other name,
 * unknown ones included → `anthropic`, the safe default.
 * @throws MilpaError `INVALID_ARGUMENT` when `provider` is not a string.
 */
export function resolveProviderShape(provider: ProviderName): ProviderToolShape {
  if (typeof provider !== 'string') throw invalid('provider must be a string.');
  const name = provider.trim().toLowerCase();
  if (name === 'mcp') return 'mcp';
  return OPENAI_STYLE.has(name) ? 'openai' : 'anthropic';
}

function checkSource(source: ProviderToolSource): void {
  if (typeof source !== 'object' || source === null || typeof source.name !== 'string') {
    throw invalid('a tool must be an object with a string name.');
  }
  if (typeof source.description !== 'string') throw invalid(`tool '${source.name}' needs a string description.`);
  if (typeof source.inputSchema !== 'object' || source.inputSchema === null || Array.isArray(source.inputSchema)) {
    throw invalid(`tool '${source.name}' needs an object inputSchema.`);
  }
}

function checkDescriptions(options: ProviderToolOptions): ProviderToolDescriptions {
  const descriptions = options.descriptions ?? 'full';
  if (descriptions !== 'full' && descriptions !== 'first-line') {
    throw invalid(`descriptions must be 'full' or 'first-line', got '${String(descriptions)}'.`);
  }
  return descriptions;
}

function wireDescription(description: string, descriptions: ProviderToolDescriptions): string {
  if (descriptions === 'full') return description;
  for (const line of description.split(/\r\n|\r|\n/)) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return '';
}

/**
 * The input schema as providers accept it: an object root whose `properties` is an object. A
 * missing `properties`, or one that is an array (an empty list decoded from another language's
 * JSON), becomes `{}`, and a missing `type` becomes `object`, in a copy; a schema that needs
 * neither is returned as it is. The given schema is never changed.
 */
function wireInputSchema(schema: JsonSchema): JsonSchema {
  const properties = schema['properties'];
  const objectProperties = typeof properties === 'object' && properties !== null && !Array.isArray(properties);
  const hasType = schema['type'] !== undefined;
  if (objectProperties && hasType) return schema;
  return { ...(hasType ? {} : { type: 'object' }), ...schema, properties: objectProperties ? properties : {} };
}

function annotationsOf(source: ProviderToolSource, title: string | undefined): McpToolAnnotations | undefined {
  if (source.annotations !== undefined) return Object.freeze({ ...source.annotations });
  if (typeof source.mutating !== 'boolean' && typeof source.mutating !== 'function')
    return title === undefined ? undefined : Object.freeze({ title });
  // A tool whose mutability depends on its arguments is announced as mutating: a client cannot
  // know the arguments in advance, so the conservative hints apply.
  const hints: McpToolAnnotations =
    mutabilityOf(source as MutabilitySubject) === 'read_only' ? { readOnlyHint: true } : { readOnlyHint: false, destructiveHint: true };
  return Object.freeze(title === undefined ? hints : { ...hints, title });
}

function shapeTool(
  source: ProviderToolSource,
  shape: ProviderToolShape,
  descriptions: ProviderToolDescriptions,
  inputSchema: JsonSchema,
): ProviderTool {
  const description = wireDescription(source.description, descriptions);
  if (shape === 'openai') {
    return Object.freeze({ type: 'function', function: Object.freeze({ name: source.name, description, parameters: inputSchema }) });
  }
  if (shape === 'anthropic') return Object.freeze({ name: source.name, description, input_schema: inputSchema });
  const title = typeof source.title === 'string' ? source.title : undefined;
  const tool: { -readonly [K in keyof McpTool]: McpTool[K] } =
    title === undefined ? { name: source.name, description, inputSchema } : { name: source.name, title, description, inputSchema };
  const output = source.outputSchema;
  if (typeof output === 'object' && output !== null && output['type'] === 'object') tool.outputSchema = output;
  const annotations = annotationsOf(source, title);
  if (annotations !== undefined) tool.annotations = annotations;
  return Object.freeze(tool as McpTool);
}

/**
 * One tool in the shape `provider` takes: OpenAI-style
 * `{ type: 'function', function: { name, description, parameters } }` for `openai`, `groq`,
 * `gemini`, `mistral`, `ollama`, `deepseek` and `custom`; `{ name, title?, description,
 * inputSchema, outputSchema?, annotations? }` for `mcp`; Anthropic-native
 * `{ name, description, input_schema }` for every other name. Provider names ignore case. The
 * schema always has an object `properties` (`{}` when empty or missing, never an array); the
 * source is never changed. The result is frozen; an unchanged schema is the source's own object.
 * Use {@link ProviderToolShapes} to shape the same tools on every turn.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a source without a string name, string description or
 *   object input schema, a provider that is not a string, or unknown `descriptions`.
 *
 * @example
 * toProviderTool({ name: 'ping', description: 'Checks a host.', inputSchema: { type: 'object' } }, 'openai');
 * // { type: 'function', function: { name: 'ping', description: 'Checks a host.', parameters: { type: 'object', properties: {} } } }
 */
export function toProviderTool<P extends ProviderName>(
  source: ProviderToolSource,
  provider: P,
  options: ProviderToolOptions = {},
): ProviderToolFor<P> {
  const shape = resolveProviderShape(provider);
  const descriptions = checkDescriptions(options);
  checkSource(source);
  return shapeTool(source, shape, descriptions, wireInputSchema(source.inputSchema)) as ProviderToolFor<P>;
}

/** A shaped tool and the source fields it was shaped from, beyond its schema object and name (the keys). */
interface CachedTool {
  readonly tool: ProviderTool;
  readonly description: string;
  readonly title: unknown;
  readonly outputSchema: unknown;
  readonly mutating: unknown;
  readonly annotations: unknown;
}

function isCurrent(cached: CachedTool, source: ProviderToolSource): boolean {
  return (
    cached.description === source.description &&
    cached.title === source.title &&
    cached.outputSchema === source.outputSchema &&
    cached.mutating === source.mutating &&
    cached.annotations === source.annotations
  );
}

/** The sources and tools of the last list of one shape and description mode, every source frozen. */
interface LastList {
  readonly sources: readonly ProviderToolSource[];
  readonly tools: readonly ProviderTool[];
}

function isSameList(previous: readonly ProviderToolSource[], sources: readonly ProviderToolSource[]): boolean {
  if (previous.length !== sources.length) return false;
  for (let index = 0; index < sources.length; index++) {
    if (previous[index] !== sources[index]) return false;
  }
  return true;
}

/**
 * {@link toProviderTool} with a cache: each tool is shaped once per shape and description mode,
 * found again by its input schema object and name (so a fresh summary of the same tool hits too),
 * and each input schema object is fixed up once, so listing the same 10,000 tools on every turn
 * costs a lookup per tool, or one identity pass when the same frozen definitions come in the same
 * order. Every provider name of one shape shares the cache (`openai` and `groq` get the same
 * objects). A tool whose description, title, output schema or annotations changed is shaped
 * again; treat a schema as immutable once listed (the registry's definitions are frozen).
 *
 * @example
 * const shapes = new ProviderToolShapes();
 * const tools = shapes.list(registry.getToolDefinitions(), 'anthropic');
 * // [{ name, description, input_schema }, ...]; the same objects on the next turn
 */
export class ProviderToolShapes {
  // One cache per shape and description mode: six at most, however many provider names are used.
  readonly #caches = new Map<string, SchemaNameCache<CachedTool>>();
  readonly #schemas = new WeakMap<JsonSchema, JsonSchema>();
  // The last list per cache: a host lists the same frozen tools in the same order on every turn,
  // so one identity pass over the sources replaces a lookup per tool. It holds those sources
  // until the next list of that shape.
  readonly #lastLists = new Map<string, LastList>();

  /**
   * One tool in `provider`'s shape, from the cache when this source was shaped before.
   * @throws MilpaError `INVALID_ARGUMENT` as {@link toProviderTool} does.
   */
  toTool<P extends ProviderName>(source: ProviderToolSource, provider: P, options: ProviderToolOptions = {}): ProviderToolFor<P> {
    const shape = resolveProviderShape(provider);
    const descriptions = checkDescriptions(options);
    return this.#shape(source, shape, descriptions, this.#cacheFor(`${shape}:${descriptions}`)) as ProviderToolFor<P>;
  }

  /**
   * Every tool in `provider`'s shape, in the order given.
   * @throws MilpaError `INVALID_ARGUMENT` when `sources` is not an array, or as {@link toProviderTool} does.
   */
  list<P extends ProviderName>(
    sources: readonly ProviderToolSource[],
    provider: P,
    options: ProviderToolOptions = {},
  ): ProviderToolFor<P>[] {
    if (!Array.isArray(sources)) throw invalid('tools must be an array.');
    const shape = resolveProviderShape(provider);
    const descriptions = checkDescriptions(options);
    const key = `${shape}:${descriptions}`;
    const last = this.#lastLists.get(key);
    if (last !== undefined && isSameList(last.sources, sources)) return last.tools.slice() as ProviderToolFor<P>[];
    const cache = this.#cacheFor(key);
    const tools: ProviderTool[] = new Array<ProviderTool>(sources.length);
    let allFrozen = true;
    for (let index = 0; index < sources.length; index++) {
      const source = sources[index] as ProviderToolSource;
      tools[index] = this.#shape(source, shape, descriptions, cache);
      if (allFrozen && !Object.isFrozen(source)) allFrozen = false;
    }
    if (allFrozen) this.#lastLists.set(key, { sources: sources.slice(), tools: tools.slice() });
    else this.#lastLists.delete(key);
    return tools as ProviderToolFor<P>[];
  }

  #cacheFor(key: string): SchemaNameCache<CachedTool> {
    let cache = this.#caches.get(key);
    if (cache === undefined) {
      cache = new SchemaNameCache<CachedTool>();
      this.#caches.set(key, cache);
    }
    return cache;
  }

  #shape(
    source: ProviderToolSource,
    shape: ProviderToolShape,
    descriptions: ProviderToolDescriptions,
    cache: SchemaNameCache<CachedTool>,
  ): ProviderTool {
    checkSource(source);
    const cached = cache.get(source.inputSchema, source.name);
    if (cached !== undefined && isCurrent(cached, source)) return cached.tool;
    let inputSchema = this.#schemas.get(source.inputSchema);
    if (inputSchema === undefined) {
      inputSchema = wireInputSchema(source.inputSchema);
      this.#schemas.set(source.inputSchema, inputSchema);
    }
    const tool = shapeTool(source, shape, descriptions, inputSchema);
    cache.set(source.inputSchema, source.name, {
      tool,
      description: source.description,
      title: source.title,
      outputSchema: source.outputSchema,
      mutating: source.mutating,
      annotations: source.annotations,
    });
    return tool;
  }
}
