import { Type } from 'typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ToolContext } from '../context/tool-context.js';
import { MilpaError } from '../errors/milpa-error.js';
import { ToolResult } from '../result/tool-result.js';
import { unsupportedCaller } from './tool-caller.js';
import { readDeclaredTools, tool } from './tool-decorator.js';
import type { ToolInvocation } from './tool-definition.js';
import { isMutatingCall, mutabilityOf } from './tool-mutability.js';

function invocation(): ToolInvocation {
  return { context: ToolContext.web('user:7', ['notes:read']), signal: new AbortController().signal, caller: unsupportedCaller };
}

const PageInput = Type.Object({ page: Type.Integer() });

class NoteTools {
  readonly prefix = 'note';

  @tool({ name: 'list_notes', description: 'List saved notes', input: PageInput, scopes: ['notes:read'], clamps: { page: [1, 1000] } })
  listNotes({ page }: { page: number }) {
    return { notes: [`${this.prefix}-${page}`], page };
  }

  @tool({ description: 'Delete a note', input: Type.Object({ id: Type.Integer() }), mutating: true, timeoutMs: 5000 })
  deleteNote({ id }: { id: number }, { context }: ToolInvocation): ToolResult {
    return ToolResult.success({ deleted: id, by: context.principal });
  }

  helper() {
    return 'not a tool';
  }
}

describe('tool', () => {
  it('refuses a legacy (experimentalDecorators) call with a message naming the setting', () => {
    const decorate = tool({ description: 'x' }) as unknown as (target: object, key: string, descriptor: PropertyDescriptor) => void;
    const legacyCall = () => decorate({}, 'run', { value: () => null });

    expect(legacyCall).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL_DEFINITION', message: expect.stringContaining('turn off "experimentalDecorators"') }),
    );
  });

  it('rejects invalid options when the class is defined', () => {
    const defineClass = () => {
      class Broken {
        @tool({ name: 'bad name', description: 'x' })
        run() {
          return null;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(MilpaError);
    expect(defineClass).toThrow(
      expect.objectContaining({
        code: 'INVALID_TOOL_DEFINITION',
        message: `Tool 'bad name': name must be 1-128 characters of letters, digits, "_", "-" or ".".`,
      }),
    );
  });

  it('rejects unknown option keys naming them when the class is defined', () => {
    const defineClass = () => {
      class Broken {
        // @ts-expect-error category is not a tool option
        @tool({ description: 'x', category: 'misc' })
        run() {
          return null;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(expect.objectContaining({ message: expect.stringContaining('unknown option key(s): category.') }));
  });

  it('rejects a handler option, since the method is the handler', () => {
    const defineClass = () => {
      class Broken {
        // @ts-expect-error handler is not a decorator option
        @tool({ description: 'x', handler: () => 1 })
        run() {
          return null;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(
      expect.objectContaining({
        code: 'INVALID_TOOL_DEFINITION',
        message: "Tool 'run': @tool takes no handler option; the decorated method is the handler.",
      }),
    );
  });

  it('rejects a clamp on a field the input does not declare', () => {
    const defineClass = () => {
      class Broken {
        // @ts-expect-error 'size' is not an input field
        @tool({ description: 'x', input: PageInput, clamps: { size: [1, 2] } })
        run(_args: { page: number }) {
          return null;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(expect.objectContaining({ message: "Tool 'run': clamp 'size' names no property of the input schema." }));
  });

  it('rejects a static method', () => {
    const defineClass = () => {
      class Broken {
        @tool({ description: 'x' })
        static run() {
          return null;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL_DEFINITION', message: "@tool cannot decorate static method 'run'." }),
    );
  });

  it('rejects a private method', () => {
    const defineClass = () => {
      class Broken {
        @tool({ description: 'x' })
        #run() {
          return null;
        }
        static probe(instance: Broken) {
          return instance.#run;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL_DEFINITION', message: "@tool cannot decorate private method '#run'." }),
    );
  });

  it('rejects a symbol-named method', () => {
    const key = Symbol('run');
    const defineClass = () => {
      class Broken {
        @tool({ description: 'x' })
        [key]() {
          return null;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(
      expect.objectContaining({ code: 'INVALID_TOOL_DEFINITION', message: "@tool cannot decorate symbol-named method 'Symbol(run)'." }),
    );
  });

  it('rejects a second @tool on the same method', () => {
    const defineClass = () => {
      class Broken {
        @tool({ name: 'a', description: 'x' })
        @tool({ name: 'b', description: 'x' })
        run() {
          return null;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(
      expect.objectContaining({
        code: 'INVALID_TOOL_DEFINITION',
        message: "@tool is applied twice to method 'run'; declare one tool per method.",
      }),
    );
  });

  it('rejects invalid routing naming the tool and the field when the class is defined', () => {
    const defineClass = () => {
      class Broken {
        @tool({ name: 'find', description: 'x', routing: { intents: ['search', ''] } })
        run() {
          return null;
        }
      }
      return Broken;
    };

    expect(defineClass).toThrow(
      expect.objectContaining({
        code: 'INVALID_TOOL_DEFINITION',
        message: "Tool 'find': routing.intents must be an array of non-empty strings.",
      }),
    );
  });

  it('leaves the method callable as an ordinary method', () => {
    expect(new NoteTools().listNotes({ page: 3 })).toEqual({ notes: ['note-3'], page: 3 });
  });

  describe('types', () => {
    it('checks the method first parameter against input', () => {
      const defineClass = () => {
        class Typed {
          @tool({ description: 'x', input: PageInput })
          good(args: { page: number }) {
            expectTypeOf(args.page).toEqualTypeOf<number>();
            return null;
          }

          // @ts-expect-error page is a number in the input, not a string
          @tool({ description: 'x', input: PageInput })
          bad(_args: { page: string }) {
            return null;
          }

          @tool({ description: 'x' })
          noArgs() {
            return null;
          }
        }
        return Typed;
      };

      expect(defineClass).not.toThrow();
    });
  });
});

describe('readDeclaredTools', () => {
  it('returns a definition for each decorated method in declaration order, skipping others', () => {
    const definitions = readDeclaredTools(new NoteTools());

    expect(definitions.map((definition) => definition.name)).toEqual(['list_notes', 'deleteNote']);
  });

  it('carries the decorator options into the definitions with defaults filled in', () => {
    const [list, remove] = readDeclaredTools(new NoteTools());

    expect(list).toMatchObject({
      name: 'list_notes',
      description: 'List saved notes',
      inputSchema: PageInput,
      scopes: ['notes:read'],
      clamps: { page: { min: 1, max: 1000 } },
      mutating: false,
      timeoutMs: 30_000,
    });
    expect(remove).toMatchObject({ name: 'deleteNote', mutating: true, timeoutMs: 5000, scopes: [] });
    expect(Object.isFrozen(list)).toBe(true);
  });

  it('carries a per-call mutating function into the definition', () => {
    class ShellTools {
      @tool({
        name: 'shell_exec',
        description: 'Run a command',
        input: Type.Object({ command: Type.String() }),
        mutating: ({ command }) => command !== 'ls',
      })
      run() {
        return null;
      }
    }

    const [shell] = readDeclaredTools(new ShellTools());

    expect(isMutatingCall(shell!, { command: 'ls' })).toBe(false);
    expect(isMutatingCall(shell!, { command: 'rm -rf x' })).toBe(true);
    expect(mutabilityOf(shell!)).toBe('depends_on_arguments');
  });

  it('rejects a mutating option that is neither a boolean nor a function when the class is defined', () => {
    expect(() => {
      class BadTools {
        // @ts-expect-error mutating takes a boolean or a function
        @tool({ name: 'bad', description: 'x', mutating: 'sometimes' })
        run() {
          return null;
        }
      }
      return BadTools;
    }).toThrow(
      expect.objectContaining({
        code: 'INVALID_TOOL_DEFINITION',
        message: "Tool 'bad': mutating must be a boolean or a function of the arguments that returns one.",
      }),
    );
  });

  it('carries routing hints into the definition, frozen, and null when the decorator gives none', () => {
    class RoutedTools {
      @tool({ name: 'find_notes', description: 'Find notes', routing: { intents: ['search'], domains: ['notes'] } })
      find() {
        return [];
      }
    }
    const [find] = readDeclaredTools(new RoutedTools());
    const [list] = readDeclaredTools(new NoteTools());

    expect(find?.routing).toEqual({ intents: ['search'], domains: ['notes'], tags: [], examples: [] });
    expect(Object.isFrozen(find?.routing)).toBe(true);
    expect(list?.routing).toBeNull();
  });

  it('names a tool after its method, verbatim, when no name is given', () => {
    const names = readDeclaredTools(new NoteTools()).map((definition) => definition.name);

    expect(names).toContain('deleteNote');
    expect(names).not.toContain('delete_note');
  });

  it('binds each handler to the instance so this works', async () => {
    const tools = new NoteTools();
    const [list, remove] = readDeclaredTools(tools);
    const { handler } = list!;

    expect(await handler({ page: 2 }, invocation())).toEqual({ notes: ['note-2'], page: 2 });
    expect(await remove!.handler({ id: 5 }, invocation())).toEqual(ToolResult.success({ deleted: 5, by: 'user:7' }));
  });

  it('binds handlers to each instance separately', async () => {
    class Counter {
      constructor(readonly label: string) {}

      @tool({ description: 'Label' })
      label_of() {
        return this.label;
      }
    }

    const [first] = readDeclaredTools(new Counter('a'));
    const [second] = readDeclaredTools(new Counter('b'));

    expect(await first!.handler({}, invocation())).toBe('a');
    expect(await second!.handler({}, invocation())).toBe('b');
  });

  it('includes tools declared on ancestor classes', () => {
    class MoreNoteTools extends NoteTools {
      @tool({ name: 'count_notes', description: 'Count notes' })
      countNotes() {
        return 0;
      }
    }

    expect(readDeclaredTools(new MoreNoteTools()).map((definition) => definition.name)).toEqual([
      'count_notes',
      'list_notes',
      'deleteNote',
    ]);
  });

  it("hides an ancestor's tool when a subclass overrides the method without the decorator", () => {
    class ReadOnlyNoteTools extends NoteTools {
      override deleteNote() {
        return ToolResult.blocked('read-only');
      }
    }

    expect(readDeclaredTools(new ReadOnlyNoteTools()).map((definition) => definition.name)).toEqual(['list_notes']);
  });

  it("replaces an ancestor's tool when a subclass overrides the method with its own decorator", async () => {
    class PagedNoteTools extends NoteTools {
      @tool({ name: 'list_notes_v2', description: 'List notes, v2', input: PageInput })
      override listNotes({ page }: { page: number }) {
        return { notes: [], page: page * 10 };
      }
    }

    const definitions = readDeclaredTools(new PagedNoteTools());

    expect(definitions.map((definition) => definition.name)).toEqual(['list_notes_v2', 'deleteNote']);
    expect(await definitions[0]!.handler({ page: 2 }, invocation())).toEqual({ notes: [], page: 20 });
  });

  it('returns an empty list for an object without tools', () => {
    expect(readDeclaredTools({})).toEqual([]);
    expect(readDeclaredTools(new (class Empty {})())).toEqual([]);
    expect(readDeclaredTools(Object.create(null) as object)).toEqual([]);
  });

  it('keeps the options as they were when the class was defined', () => {
    const options = { description: 'Original', scopes: ['a'] };
    class Tools {
      @tool(options)
      run() {
        return null;
      }
    }
    options.description = 'Changed later';
    options.scopes.push('admin');

    expect(readDeclaredTools(new Tools())[0]).toMatchObject({ description: 'Original', scopes: ['a'] });
  });

  it('throws INVALID_ARGUMENT when given something other than an object', () => {
    expect(() => readDeclaredTools(null as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'readDeclaredTools() expects an object holding @tool methods.' }),
    );
    expect(() => readDeclaredTools('tools' as never)).toThrow(MilpaError);
  });

  it('does not run getters while reading', () => {
    let reads = 0;
    class WithGetter {
      get expensive() {
        reads++;
        return 1;
      }

      @tool({ description: 'x' })
      run() {
        return null;
      }
    }

    expect(readDeclaredTools(new WithGetter())).toHaveLength(1);
    expect(reads).toBe(0);
  });
});
