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

interface ToolDeclaration {
  readonly methodName: string;
  readonly options: ToolDecoratorOptions<TObject>;
}

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
 *   when placed on a private or static method.
 *
 * @example
 * class NoteTools {
 *   @tool({ name: 'list_notes', description: 'List saved notes', input: Type.Object({ page: Type.Integer() }), clamps: { page: [1, 1000] } })
 *   listNotes({ page }: { page: number }) {
 *     return { notes: [], page };
 *   }
 * }
 */
export function tool<I extends TObject = TObject<TProperties>>(options: ToolDecoratorOptions<I>) {
  return function decorate<This, R>(
    method: ToolMethod<This, I, R>,
    context: ClassMethodDecoratorContext<This, ToolMethod<This, I, R>>,
  ): void {
    const methodName = String(context.name);
    if (context.private || context.static || typeof context.name !== 'string') {
      throw new MilpaError(`@tool cannot decorate ${context.static ? 'static' : 'private or symbol-named'} method '${methodName}'.`, {
        code: 'INVALID_TOOL_DEFINITION',
      });
    }
    // Validate now, so a bad declaration fails when the class is defined, not when it is scanned.
    normalizeToolDefinition({ ...options, name: options.name ?? methodName, handler: method });
    const declaration: ToolDeclaration = { methodName, options: options as ToolDecoratorOptions<TObject> };
    Object.defineProperty(method, TOOL_DECLARATION, { value: declaration });
  };
}

/**
 * Reads every `@tool`-decorated method of `instance` (own class and ancestors; an override without
 * the decorator hides its ancestor's) and returns their definitions, each handler bound to
 * `instance`, in declaration order.
 */
export function readDeclaredTools(instance: object): AnyToolDefinition[] {
  const definitions: AnyToolDefinition[] = [];
  const seen = new Set<string>();
  for (let prototype = Object.getPrototypeOf(instance); prototype !== null && prototype !== Object.prototype; prototype = Object.getPrototypeOf(prototype)) {
    for (const key of Object.getOwnPropertyNames(prototype)) {
      if (key === 'constructor' || seen.has(key)) continue;
      seen.add(key);
      const descriptor = Object.getOwnPropertyDescriptor(prototype, key);
      const method: unknown = descriptor?.value;
      if (typeof method !== 'function') continue;
      const declaration = (method as unknown as Record<symbol, ToolDeclaration | undefined>)[TOOL_DECLARATION];
      if (declaration === undefined) continue;
      definitions.push(
        normalizeToolDefinition({
          ...declaration.options,
          name: declaration.options.name ?? declaration.methodName,
          handler: (args: unknown, invocation: ToolInvocation) =>
            (method as (args: unknown, invocation: ToolInvocation) => unknown).call(instance, args, invocation),
        }),
      );
    }
  }
  return definitions;
}
