import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNLIMITED } from '../../src/routing/model-tool-budget.js';
import { ToolRouterOracle } from '../support/tool-router-oracle.js';
import { ToolRouter, type RoutableTool, type ToolRouteOptions, type ToolSelection } from '../../src/routing/tool-router.js';

// Words that exercise the term rules: plurals and `ies`, `status`, stop words, short words,
// numbers, camelCase, acronyms and words shared by many tools (rarity).
const WORDS = [
  'note',
  'notes',
  'delete',
  'archive',
  'invoice',
  'invoices',
  'report',
  'status',
  'editor',
  'editors',
  'category',
  'categories',
  'search',
  'ledger',
  'bank',
  'the',
  'which',
  'db',
  'id',
  '123',
  '2024',
  'deleteNote',
  'HTTPRequest',
  'ShellTool',
  'notesArchive',
  'List',
  'FIND',
  'café',
  'Ünïcode',
] as const;
const SEGMENTS = [
  'note',
  'notes',
  'delete',
  'shell',
  'exec',
  'list',
  'file',
  'read',
  'edit',
  'a',
  'ls',
  'v2',
  'x9',
  'Tool',
  'HTTP',
  'Request',
] as const;
const SEPARATORS = ['_', '.', '-', '', '__'] as const;
const PUNCTUATION = [' ', ' ', ' ', ', ', '. ', '\n', ': ', ' `', '` ', '(', ') ', ' e.g. ', ' — '] as const;

const word = fc.constantFrom(...WORDS);
const text = fc.array(word, { maxLength: 6 }).map((list) => list.join(' '));
const hints = fc.oneof(
  { weight: 8, arbitrary: fc.array(text, { maxLength: 3 }) },
  // Hand-built tools may carry hints that are not lists of text.
  { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, null, 'note', [42, null, 'note archive']) },
);
const routing = fc.oneof(
  { weight: 8, arbitrary: fc.record({ intents: hints, domains: hints, tags: hints, examples: hints }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined) },
);

/** A tool name from segments, separators and casings, so names collide once made canonical. */
const name = fc
  .tuple(
    fc.array(fc.tuple(fc.constantFrom(...SEGMENTS), fc.constantFrom('lower', 'upper', 'capital')), { minLength: 1, maxLength: 4 }),
    fc.constantFrom(...SEPARATORS),
    fc.nat(30),
  )
  .map(([segments, separator, id]) => {
    const cased = segments.map(([segment, casing]) =>
      casing === 'upper' ? segment.toUpperCase() : casing === 'capital' ? `${segment.charAt(0).toUpperCase()}${segment.slice(1)}` : segment,
    );
    return id < 20 ? `${cased.join(separator)}${separator === '' ? '' : separator}${id}` : cased.join(separator);
  });

const toolsArbitrary = fc
  .uniqueArray(name, { minLength: 0, maxLength: 40 })
  .chain((names) =>
    fc.tuple(
      ...names.map((toolName) =>
        fc
          .record({ routing, description: fc.oneof(text, fc.constant(undefined as unknown as string)) })
          .map(({ routing: toolRouting, description }) => ({ name: toolName, description, routing: toolRouting }) as RoutableTool),
      ),
    ),
  );

/** How a message mentions a tool: as written, canonical, camelCase, class-style, partial, extended. */
function mention(toolName: string, form: number, cut: number): string {
  const parts = toolName.split(/[_.-]+/).filter((part) => part !== '');
  switch (form % 7) {
    case 0:
      return toolName;
    case 1:
      return parts.join('_').toLowerCase();
    case 2:
      return parts
        .map((part, index) => (index === 0 ? part.toLowerCase() : `${part.charAt(0).toUpperCase()}${part.slice(1).toLowerCase()}`))
        .join('');
    case 3:
      return `${parts.map((part) => `${part.charAt(0).toUpperCase()}${part.slice(1).toLowerCase()}`).join('')}Tool`;
    case 4:
      return toolName.slice(0, Math.max(1, toolName.length - (cut % 4)));
    case 5:
      return `${toolName}_v${cut % 3}`;
    default:
      return toolName.slice(cut % Math.max(1, toolName.length));
  }
}

function messageFor(tools: readonly RoutableTool[]) {
  const piece = fc.oneof(
    { weight: 6, arbitrary: word },
    {
      weight: tools.length === 0 ? 0 : 2,
      arbitrary: fc
        .tuple(fc.nat(), fc.nat(6), fc.nat())
        .map(([pick, form, cut]) => mention((tools[pick % tools.length] as RoutableTool).name, form, cut)),
    },
  );
  return fc.tuple(fc.array(fc.tuple(piece, fc.constantFrom(...PUNCTUATION)), { maxLength: 30 }), fc.nat(4)).map(([pieces, repeat]) => {
    const once = pieces.map(([said, after]) => `${said}${after}`).join('');
    // A pasted document repeats its words: repeats damp a word's weight.
    return Array.from({ length: repeat + 1 }, () => once).join(repeat % 2 === 0 ? ' ' : '\n');
  });
}

function optionsFor(tools: readonly RoutableTool[]) {
  return fc.record({
    budget: fc.oneof(fc.nat(tools.length + 2), fc.constant(UNLIMITED)),
    profile: fc.constantFrom('minimal' as const, 'standard' as const, 'full' as const),
    alwaysInclude: fc.option(
      fc.array(
        fc.oneof(
          fc.tuple(fc.nat(), fc.boolean()).map(([pick, upper]) => {
            const picked = tools.length === 0 ? 'missing_tool' : (tools[pick % tools.length] as RoutableTool).name;
            return upper ? picked.toUpperCase() : picked.toLowerCase();
          }),
          fc.constant('removed_tool'),
        ),
        { maxLength: 3 },
      ),
      { nil: undefined },
    ),
  }) as fc.Arbitrary<ToolRouteOptions>;
}

const scenario = toolsArbitrary.chain((tools) =>
  fc.record({
    tools: fc.constant(tools),
    frozen: fc.boolean(),
    turns: fc.array(fc.record({ message: messageFor(tools), options: optionsFor(tools) }), { minLength: 1, maxLength: 4 }),
  }),
);

/** Everything a caller can observe of a selection (the tool objects by identity), or the error thrown. */
function observe(run: () => ToolSelection): unknown {
  try {
    const selection = run();
    return {
      tools: selection.tools.map((tool) => tool.name),
      ranking: [...selection.ranking],
      ranked: selection.ranked,
      pinned: [...selection.pinned],
      alwaysIncluded: [...selection.alwaysIncluded],
      frozen: [selection, selection.tools, selection.ranking, selection.pinned, selection.alwaysIncluded].every((part) =>
        Object.isFrozen(part),
      ),
    };
  } catch (error) {
    return { threw: error instanceof Error ? error.message : String(error), code: (error as { code?: unknown }).code };
  }
}

function expectSameSelections(
  fast: ToolRouter,
  oracle: ToolRouterOracle,
  tools: readonly RoutableTool[],
  message: string,
  options: ToolRouteOptions,
): void {
  const expected = observe(() => oracle.route(tools, message, options));
  const actual = observe(() => fast.route(tools, message, options));
  expect(actual).toEqual(expected);
  if (!('threw' in (expected as object))) {
    const fastTools = fast.route(tools, message, options).tools;
    const oracleTools = oracle.route(tools, message, options).tools;
    fastTools.forEach((tool, index) => expect(tool).toBe(oracleTools[index]));
  }
}

const full1: ToolRouteOptions = { budget: 1, profile: 'full' };

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

describe('ToolRouter', () => {
  describe('route: equivalence with the reference router', () => {
    it('gives the reference selection for random tools, messages, budgets, profiles and always-included tools', () => {
      fc.assert(
        fc.property(scenario, ({ tools, frozen, turns }) => {
          const list = frozen ? deepFreeze(tools.map((tool) => ({ ...tool }))) : tools;
          // One router per side across turns, so the cached index answers the later turns.
          const fast = new ToolRouter();
          const oracle = new ToolRouterOracle();
          for (const { message, options } of turns) expectSameSelections(fast, oracle, list, message, options);
        }),
        { numRuns: 400 },
      );
    });

    it('gives the reference selection when a reused array gains, loses or swaps tools between turns', () => {
      fc.assert(
        fc.property(scenario, fc.nat(), ({ tools, turns }, pick) => {
          const list = tools.map((tool) => Object.freeze({ ...tool }));
          const fast = new ToolRouter();
          const oracle = new ToolRouterOracle();
          for (const [turn, { message, options }] of turns.entries()) {
            expectSameSelections(fast, oracle, list, message, options);
            const at = (pick + turn) % Math.max(1, list.length);
            if (turn % 3 === 0) list.pop();
            else if (turn % 3 === 1 && list.length > 0)
              list[at] = Object.freeze({ name: `swapped_${turn}`, description: 'note archive', routing: { intents: ['note'] } });
            else list.push(Object.freeze({ name: `added_${turn}`, description: 'ledger', routing: { tags: ['invoice'] } }));
          }
        }),
        { numRuns: 150 },
      );
    });

    it('gives the reference selection when a tool that is not frozen changes between turns', () => {
      fc.assert(
        fc.property(scenario, fc.nat(), fc.array(word, { minLength: 1, maxLength: 3 }), ({ tools, turns }, pick, words) => {
          fc.pre(tools.length > 0);
          const list = tools.map((tool, index) => (index === pick % tools.length ? { ...tool } : Object.freeze({ ...tool })));
          const mutable = list[pick % tools.length] as { name: string; description: string; routing?: unknown };
          const fast = new ToolRouter();
          const oracle = new ToolRouterOracle();
          for (const [turn, { message, options }] of turns.entries()) {
            expectSameSelections(fast, oracle, list, message, options);
            mutable.routing = { intents: words.slice(turn % words.length) };
            mutable.description = words.join(' ');
            if (turn === 1) mutable.name = `${mutable.name}_renamed`;
          }
        }),
        { numRuns: 150 },
      );
    });

    // Mentions the random ones rarely reach: the longest name inside a longer identifier (the name
    // index stops at the longest name) and a two-letter class-style stem (`LsTool` → `ls`).
    it.each<[string, string, readonly string[]]>([
      ['the longest name inside a longer identifier', 'run shell_exec_runner_v2 now', ['shell_exec_runner']],
      ['the longest name as written', 'run ShellExecRunnerTool now', ['shell_exec_runner']],
      ['a two-letter stem inside a name', 'use LsTool', ['also_list']],
      ['a partial name', 'use exec_run', ['shell_exec_runner']],
    ])('pins like the reference router for %s on a kept index', (_case, message, pinned) => {
      const tools = Object.freeze(
        ['note_a', 'note_b', 'note_c', 'also_list', 'shell_exec_runner'].map((toolName) =>
          Object.freeze({ name: toolName, description: 'note', routing: Object.freeze({ tags: Object.freeze(['note']) }) }),
        ),
      );
      const fast = new ToolRouter();
      const oracle = new ToolRouterOracle();
      expectSameSelections(fast, oracle, tools, 'note', full1);
      expectSameSelections(fast, oracle, tools, message, full1);

      expect(fast.route(tools, message, full1).pinned).toEqual(pinned);
    });

    it('throws the reference error for duplicate or missing names', () => {
      fc.assert(
        fc.property(
          scenario,
          fc.nat(),
          fc.constantFrom<unknown>('duplicate', null, { description: 'x' }, 7),
          ({ tools, turns }, pick, odd) => {
            fc.pre(tools.length > 0);
            const bad = [...tools];
            bad.splice(pick % (tools.length + 1), 0, (odd === 'duplicate' ? tools[pick % tools.length] : odd) as RoutableTool);
            const [{ message, options }] = turns as [(typeof turns)[number]];
            expectSameSelections(new ToolRouter(), new ToolRouterOracle(), bad, message, options);
          },
        ),
        { numRuns: 100 },
      );
    });
  });
});
