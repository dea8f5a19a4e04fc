import type { Static, TObject, TProperties } from 'typebox';
import { MilpaError } from '../errors/milpa-error.js';
import type { ToolResult } from '../result/tool-result.js';
import { normalizeToolDefinition, type ToolOptions } from './define-tool.js';
import type { AnyToolDefinition, ToolInvocation } from './tool-definition.js';

const TOOL_DECLARATION = Symbol.for('milpa.tool.declaration');

/** The argument of the {@link tool} decorator: `defineTool`'s options without the handler. */
export interface ToolDecoratorOptions<I extends TObject> extends ToolOptions<Static<I>> {
  /** Unique name on the wire; defaults to the method's name, verbatim. */
  readonly name?: string;
  /** What the tool does, for people and models. */
  readonly description: string;
  /** A TypeBox object schema; the method's first parameter is typed from it. */
  readonly input?: I;
}

/**
 * What a project declares about its compilation for `@tool`'s build-time check. Empty by default.
 * The check refuses `@tool` when the `lib` includes `esnext.decorators` (as `"target": "esnext"` with
 * no `lib` does, the default of `tsc --init` since TypeScript 5.9): TypeScript then emits decorators
 * as written, and Node rejects them with a `SyntaxError`. A project whose `target` is below
 * `esnext` while its `lib` names `esnext` (or a bundler that compiles decorators) declares so:
 *
 * @example
 * declare module '@milpa/core' {
 *   interface ToolDecoratorCompilation {
 *     decorators: 'compiled';
 *   }
 * }
 */
// Extends an empty object type so the declaration is an interface users can merge into.
export interface ToolDecoratorCompilation extends Record<never, never> {}

/** The key of the property `@tool`'s options must have when the check fails; TypeScript prints it. */
type NativeDecoratorsProblem = '@tool: TypeScript emits decorators as written for "target": "esnext", and Node cannot run them.';
type NativeDecoratorsFix = 'Set "target" to "es2022" (or another target below esnext) in tsconfig.json; see the @milpa/core README.';
type NativeDecoratorsError = `${NativeDecoratorsProblem} ${NativeDecoratorsFix}`;

/** `unknown` (no constraint) unless the compilation looks like one that emits decorators natively. */
type NativeDecoratorsCheck = ToolDecoratorCompilation extends { readonly decorators: 'compiled' }
  ? unknown
  : SymbolConstructor extends { readonly metadata: symbol }
    ? { readonly [K in NativeDecoratorsError]: never }
    : unknown;

type ToolMethod<This, I extends TObject, R> = (
  this: This,
  args: Static<I>,
  invocation: ToolInvocation,
) => R | ToolResult | Promise<R | ToolResult>;

/**
 * Marks a class method as a tool (TC39 standard decorator). The options are those of `defineTool`
 * without the handler; the method is the handler, bound to its instance when
 * {@link readDeclaredTools} (or `ToolScanner`) reads the object.
 *
 * @throws MilpaError `INVALID_TOOL_DEFINITION` at class definition time for invalid options, or
 *   when placed on a private or static method, or called as a legacy (`experimentalDecorators`) decorator.
 *
 * Build-time check: where TypeScript would emit the decorator as written (`"target": "esnext"`,
 * seen from a `lib` that includes `esnext.decorators`), the options do not type-check and the error
 * says which setting to change; see {@link ToolDecoratorCompilation}.
 *
 * @example
 * class NoteTools {
 *   @tool({
 *     name: 'list_notes',
 *     description: 'List saved notes',
 *     input: Type.Object({ page: Type.Integer() }),
 *     clamps: { page: [1, 1000] },
 *   })
 *   listNotes({ page }: { page: number }) {
 *     return { notes: [], page };
 *   }
 * }
 */
export function tool<I extends TObject = TObject<TProperties>>(options: ToolDecoratorOptions<I> & NativeDecoratorsCheck) {
  return function decorate<This, R>(
    method: ToolMethod<This, I, R>,
    context: ClassMethodDecoratorContext<This, ToolMethod<This, I, R>>,
  ): void {
    if (typeof context !== 'object' || context === null || (context as { kind?: unknown }).kind !== 'method') {
      // A legacy (`experimentalDecorators`) compiler calls decorate(prototype, key, descriptor).
      throw new MilpaError('@tool is a standard decorator for methods: turn off "experimentalDecorators" and use it on a method.', {
        code: 'INVALID_TOOL_DEFINITION',
      });
    }
    const methodName = String(context.name);
    const kind = context.static ? 'static' : context.private ? 'private' : typeof context.name === 'symbol' ? 'symbol-named' : null;
    if (kind !== null) {
      throw new MilpaError(`@tool cannot decorate ${kind} method '${methodName}'.`, { code: 'INVALID_TOOL_DEFINITION' });
    }
    if (Object.hasOwn(method, TOOL_DECLARATION)) {
      throw new MilpaError(`@tool is applied twice to method '${methodName}'; declare one tool per method.`, {
        code: 'INVALID_TOOL_DEFINITION',
      });
    }
    const name = options.name ?? methodName;
    if (Object.hasOwn(options, 'handler')) {
      throw new MilpaError(`Tool '${String(name)}': @tool takes no handler option; the decorated method is the handler.`, {
        code: 'INVALID_TOOL_DEFINITION',
      });
    }
    // Normalize now, so a bad declaration fails when the class is defined, not when it is scanned,
    // and later edits to the options object cannot change the tool.
    const definition = normalizeToolDefinition({ ...options, name, handler: method });
    Object.defineProperty(method, TOOL_DECLARATION, { value: definition });
  };
}

/**
 * Reads every `@tool`-decorated method of `instance` (own class and ancestors; an override without
 * the decorator hides its ancestor's) and returns their definitions, each handler bound to
 * `instance`: the instance's own class first, each class in declaration order.
 *
 * @throws MilpaError `INVALID_ARGUMENT` when `instance` is not an object.
 *
 * @example
 * for (const definition of readDeclaredTools(new NoteTools())) registry.register(definition);
 */
export function readDeclaredTools(instance: object): AnyToolDefinition[] {
  if ((typeof instance !== 'object' && typeof instance !== 'function') || instance === null) {
    throw new MilpaError('readDeclaredTools() expects an object holding @tool methods.', { code: 'INVALID_ARGUMENT' });
  }
  const definitions: AnyToolDefinition[] = [];
  const seen = new Set<string>();
  for (
    let prototype = Object.getPrototypeOf(instance);
    prototype !== null && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype)
  ) {
    for (const key of Object.getOwnPropertyNames(prototype)) {
      if (key === 'constructor' || seen.has(key)) continue;
      seen.add(key);
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      const method: unknown = descriptor?.value;
      if (typeof method !== 'function') continue;
      const declaration = (method as unknown as Record<symbol, AnyToolDefinition | undefined>)[TOOL_DECLARATION];
      if (declaration === undefined) continue;
      const bound = method as (this: object, args: unknown, invocation: ToolInvocation) => unknown;
      definitions.push(
        Object.freeze({ ...declaration, handler: (args: unknown, invocation: ToolInvocation) => bound.call(instance, args, invocation) }),
      );
    }
  }
  return definitions;
}
