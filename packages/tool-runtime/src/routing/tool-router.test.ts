import { defineTool, type ToolRouting } from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UNLIMITED } from './model-tool-budget.js';
import { ToolNameMentions } from './tool-name-mentions.js';
import { ROUTING_SIGNAL_WEIGHTS, ToolRouter, type RoutableTool, type ToolRouteOptions } from './tool-router.js';

function tool(name: string, routing: Partial<ToolRouting> = {}, description = ''): RoutableTool {
  return { name, description, routing };
}

/** `count` tools that share no word with each other or with the messages below. */
function fillers(count: number): RoutableTool[] {
  return Array.from({ length: count }, (_, index) => tool(`filler_${String(index).padStart(2, '0')}`, {}, 'Unrelated utility.'));
}

const full = (budget: number, alwaysInclude?: readonly string[]): ToolRouteOptions => ({ budget, profile: 'full', alwaysInclude });

function route(tools: readonly RoutableTool[], message: string, options: ToolRouteOptions) {
  return new ToolRouter().route(tools, message, options);
}

function offered(tools: readonly RoutableTool[], message: string, options: ToolRouteOptions): string[] {
  return route(tools, message, options).tools.map((routed) => routed.name);
}

/** The name the router puts first when two tools are routed with a budget of one. */
function winner(first: RoutableTool, second: RoutableTool, message: string): string | undefined {
  return route([first, second], message, full(1)).ranking[0];
}

describe('ToolRouter', () => {
  describe('route: within budget', () => {
    const tools = [tool('zeta'), tool('alpha'), tool('mid')];

    it('offers every tool, unranked, when the tools fit the budget', () => {
      const selection = route(tools, 'anything at all', full(3));

      expect(selection.ranked).toBe(false);
      expect(selection.tools.map((routed) => routed.name)).toEqual(['alpha', 'mid', 'zeta']);
      expect(selection.ranking).toEqual(['zeta', 'alpha', 'mid']);
      expect(selection.pinned).toEqual([]);
    });

    it('returns the tool objects it was given', () => {
      expect(route(tools, '', full(5)).tools[0]).toBe(tools[1]);
    });

    it('does not count always-included tools against the budget when deciding to rank', () => {
      const many = [...fillers(5), tool('read_file'), tool('edit_file')];
      const selection = route(many, 'hello', full(5, ['read_file', 'edit_file']));

      expect(selection.ranked).toBe(false);
      expect(selection.tools).toHaveLength(7);
      expect(selection.ranking).toEqual(fillers(5).map((filler) => filler.name));
    });

    it('offers every tool, unranked, when the budget is UNLIMITED', () => {
      const selection = route(fillers(40), 'hello', full(UNLIMITED));

      expect(selection.ranked).toBe(false);
      expect(selection.tools).toHaveLength(40);
    });

    it('ranks as soon as the tools exceed the budget by one', () => {
      expect(route(fillers(6), 'hello', full(5)).ranked).toBe(true);
    });
  });

  describe('route: budget and always-included tools', () => {
    it('offers 8 tools for a budget of 6 and two always-included tools', () => {
      const tools = [...fillers(12), tool('file_read'), tool('file_edit')];
      const selection = route(tools, 'fix the typo', full(6, ['file_read', 'file_edit']));

      expect(selection.ranked).toBe(true);
      expect(selection.tools).toHaveLength(8);
      expect(selection.ranking).toHaveLength(6);
      expect(selection.alwaysIncluded).toEqual(['file_edit', 'file_read']);
      expect(selection.tools.map((routed) => routed.name)).toEqual(expect.arrayContaining(['file_read', 'file_edit']));
    });

    it('keeps always-included tools out of the ranking and the pinned list, even when named', () => {
      const tools = [...fillers(6), tool('file_read')];
      const selection = route(tools, 'use file_read', full(2, ['file_read']));

      expect(selection.ranking).not.toContain('file_read');
      expect(selection.pinned).toEqual([]);
      expect(selection.tools.map((routed) => routed.name)).toContain('file_read');
    });

    it('matches always-included names without regard to case and skips unknown names', () => {
      const tools = [...fillers(6), tool('File_Read')];
      const selection = route(tools, 'hello', full(2, ['file_READ', 'removed_tool']));

      expect(selection.alwaysIncluded).toEqual(['File_Read']);
      expect(selection.tools).toHaveLength(3);
    });

    it('offers only always-included tools for a budget of 0', () => {
      const tools = [...fillers(3), tool('file_read')];

      expect(offered(tools, 'use filler_01', full(0, ['file_read']))).toEqual(['file_read']);
    });
  });

  describe('route: pinning', () => {
    const tools = [...fillers(8), tool('shell_exec'), tool('delete_note'), tool('list_notes', { intents: ['show'] })];

    it('keeps a tool the message names though nothing else matches it', () => {
      const selection = route(tools, 'please show things, then run shell_exec', full(1));

      expect(selection.ranking).toEqual(['shell_exec']);
      expect(selection.pinned).toEqual(['shell_exec']);
    });

    it('pins a tool named in class style, with or without the Tool suffix', () => {
      expect(route(tools, 'Use DeleteNoteTool on note 4', full(1)).pinned).toEqual(['delete_note']);
      expect(route(tools, 'Use DeleteNote on note 4', full(1)).pinned).toEqual(['delete_note']);
      expect(route(tools, 'use ShellTool', full(1)).pinned).toEqual(['shell_exec']);
    });

    it('pins on a partial mention, substring in both directions', () => {
      expect(route(tools, 'run delete_no on it', full(1)).pinned).toEqual(['delete_note']);
      expect(route(tools, 'run shell_exec_v2 on it', full(1)).pinned).toEqual(['shell_exec']);
    });

    it('pins on a plain word that is the first part of the name', () => {
      const selection = route(tools, 'please show things, then open a shell', full(1));

      expect(selection.ranking).toEqual(['shell_exec']);
      expect(selection.pinned).toEqual(['shell_exec']);
    });

    it('fills the budget with pinned tools first, then the highest-ranked', () => {
      const selection = route(tools, 'show everything with delete_note', full(2));

      expect(selection.ranking).toEqual(['delete_note', 'list_notes']);
      expect(selection.tools.map((routed) => routed.name)).toEqual(['delete_note', 'list_notes']);
    });

    it('keeps the best-scoring pinned tools when more are named than the budget holds', () => {
      const named = [...fillers(3), tool('delete_note', { intents: ['delete'] }), tool('shell_exec'), tool('archive_note')];
      const selection = route(named, 'delete it: shell_exec, archive_note or delete_note', full(1));

      expect(selection.ranking).toEqual(['delete_note']);
      expect(selection.pinned).toEqual(['delete_note']);
    });

    it('keeps a pinned tool on the minimal profile though it scores under the cutoff', () => {
      const selection = route(tools, 'show all, or shell_exec', { budget: 3, profile: 'minimal' });

      expect(selection.tools.map((routed) => routed.name)).toEqual(['list_notes', 'shell_exec']);
    });
  });

  describe('route: signals', () => {
    it('ranks an intent above a domain, a domain above a tag, a tag above an example, an example above the name', () => {
      const message = 'archive invoice';
      // Names chosen so that name order alone would pick the weaker tool every time.
      expect(winner(tool('b_intent', { intents: ['archive'] }), tool('a_domain', { domains: ['archive'] }), message)).toBe('b_intent');
      expect(winner(tool('b_domain', { domains: ['archive'] }), tool('a_tag', { tags: ['archive'] }), message)).toBe('b_domain');
      expect(winner(tool('b_tag', { tags: ['archive'] }), tool('a_example', { examples: ['archive it'] }), message)).toBe('b_tag');
      expect(winner(tool('b_example', { examples: ['archive it'] }), tool('a_archive'), message)).toBe('b_example');
    });

    it.each<[string, Partial<ToolRouting>, string, Partial<ToolRouting>, string]>([
      ['one intent', { intents: ['alpha'] }, 'two domains', { domains: ['alpha', 'beta'] }, ''],
      ['one domain', { domains: ['alpha'] }, 'two tags', { tags: ['alpha', 'beta'] }, ''],
      ['one tag', { tags: ['alpha'] }, 'two examples', { examples: ['alpha', 'beta'] }, ''],
      ['one example', { examples: ['alpha'] }, 'the name and the description', {}, 'beta'],
    ])('weighs %s like %s (16/8/4/2/1/1), so the name breaks the tie', (_first, firstRouting, _second, secondRouting, description) => {
      const secondName = description === '' ? 'm_second' : 'm_alpha';
      const message = 'alpha beta';
      const firstWins = winner(tool('a_first', firstRouting), tool(secondName, secondRouting, description), message);
      const secondWins = winner(tool('z_first', firstRouting), tool(secondName, secondRouting, description), message);

      expect(firstWins).toBe('a_first');
      expect(secondWins).toBe(secondName);
    });

    it('weighs the name like the description', () => {
      expect(winner(tool('a_other', {}, 'alpha'), tool('m_alpha'), 'alpha')).toBe('a_other');
      expect(winner(tool('z_other', {}, 'alpha'), tool('m_alpha'), 'alpha')).toBe('m_alpha');
    });

    it('exposes the six weights', () => {
      expect(ROUTING_SIGNAL_WEIGHTS).toEqual({ intent: 16, domain: 8, tag: 4, example: 2, name: 1, description: 1 });
    });

    it('adds a word once per source, however often the source repeats it', () => {
      const repeated = tool('a_repeated', { examples: ['alpha', 'alpha again', 'more alpha'] });
      const tagged = tool('b_tagged', { tags: ['alpha'] });

      expect(winner(repeated, tagged, 'alpha')).toBe('b_tagged');
    });

    it('adds up the sources a word appears in', () => {
      const both = tool('b_both', { domains: ['alpha'], tags: ['alpha'] });
      const domain = tool('a_domain', { domains: ['alpha'] });

      expect(winner(both, domain, 'alpha')).toBe('b_both');
    });

    it('matches "editors" with the tag editor and "categories" with the tag category', () => {
      const tools = [...fillers(4), tool('open_editor', { tags: ['editor'] }), tool('manage_taxonomy', { tags: ['category'] })];

      expect(route(tools, 'which editors are installed?', full(1)).ranking).toEqual(['open_editor']);
      expect(route(tools, 'rename the categories', full(1)).ranking).toEqual(['manage_taxonomy']);
    });

    it('matches "status" with itself, both sides cut to statu', () => {
      const tools = [...fillers(4), tool('order_state', { intents: ['status'] })];

      expect(route(tools, 'what is the status of order 12', full(1)).ranking).toEqual(['order_state']);
    });

    it('ignores words shorter than three characters and stop words', () => {
      const tools = [tool('b_short', { intents: ['db', 'the', 'which'] }), tool('a_plain'), tool('c_plain')];

      expect(route(tools, 'db the which', full(1)).ranking).toEqual(['a_plain']);
    });

    it('matches words in camelCase and dotted tool names', () => {
      const tools = [...fillers(4), tool('notes.archiveOld')];

      expect(route(tools, 'archive old stuff', full(1)).ranking).toEqual(['notes.archiveOld']);
    });
  });

  describe('route: rarity and repeats', () => {
    it('counts a word one tool carries above a word most tools carry, with three or more tools', () => {
      const tools = [
        tool('a_common', { tags: ['report'] }),
        tool('b_common', { tags: ['report'] }),
        tool('c_common', { tags: ['report'] }),
        tool('z_rare', { tags: ['invoice'] }),
      ];

      expect(route(tools, 'invoice report', full(1)).ranking).toEqual(['z_rare']);
    });

    it('does not weigh by rarity with fewer than three tools', () => {
      const tools = [tool('a_common', { tags: ['report'] }), tool('z_rare', { tags: ['invoice'] })];

      expect(route(tools, 'invoice report', full(1)).ranking).toEqual(['a_common']);
    });

    it('does not let a pasted document outrank the request around it', () => {
      const document = Array.from({ length: 40 }, (_, index) => `Invoice ${index} is overdue; the invoice total is due.`).join(' ');
      const tools = [
        ...fillers(3),
        tool('create_invoice', { intents: ['invoice'], domains: ['billing'] }),
        tool('translate_text', { intents: ['translate'] }),
      ];

      expect(route(tools, `Translate this into French:\n${document}`, full(1)).ranking).toEqual(['translate_text']);
    });

    it('still ranks by a repeated word when nothing else matches', () => {
      const tools = [...fillers(3), tool('create_invoice', { intents: ['invoice'] })];

      expect(route(tools, 'invoice invoice invoice', full(1)).ranking).toEqual(['create_invoice']);
    });
  });

  describe('route: minimal profile cutoff', () => {
    const tools = [
      tool('delete_note', { intents: ['delete'], domains: ['note'] }),
      tool('archive_note', { domains: ['note'] }),
      tool('word_stats', {}, 'Counts of note words.'),
      ...fillers(4),
    ];

    it('leaves out a tool scoring under 20 % of the best even with slots free', () => {
      const selection = route(tools, 'delete a note', { budget: 5, profile: 'minimal' });

      expect(selection.ranking).toEqual(['delete_note', 'archive_note']);
    });

    it('fills the free slots on other profiles', () => {
      const selection = route(tools, 'delete a note', { budget: 5, profile: 'standard' });

      expect(selection.ranking.slice(0, 3)).toEqual(['delete_note', 'archive_note', 'word_stats']);
      expect(selection.ranking).toHaveLength(5);
    });

    it('keeps the budget filled by name when nothing matches at all', () => {
      const selection = route(tools, 'hello there', { budget: 2, profile: 'minimal' });

      expect(selection.ranking).toEqual(['archive_note', 'delete_note']);
    });
  });

  describe('route: order and determinism', () => {
    it('breaks ties on the name, never on registration order', () => {
      const tools = [tool('c_tie', { tags: ['alpha'] }), tool('a_tie', { tags: ['alpha'] }), tool('b_tie', { tags: ['alpha'] })];

      expect(route(tools, 'alpha', full(2)).ranking).toEqual(['a_tie', 'b_tie']);
      expect(route([...tools].reverse(), 'alpha', full(2)).ranking).toEqual(['a_tie', 'b_tie']);
    });

    it('sorts the offered tools by name, so one selection is byte-identical for different messages', () => {
      const tools = [...fillers(5), tool('delete_note', { intents: ['delete'] }), tool('archive_note', { intents: ['archive'] })];
      const first = route(tools, 'archive or delete the note', full(2));
      const second = route(tools, 'delete_note then archive', full(2));

      expect(first.tools.map((routed) => routed.name)).toEqual(['archive_note', 'delete_note']);
      expect(JSON.stringify(first.tools)).toBe(JSON.stringify(second.tools));
    });

    it('works on tool definitions and re-reads a tool that is not frozen', () => {
      const router = new ToolRouter();
      const definitions = [
        ...Array.from({ length: 3 }, (_, index) => defineTool({ name: `other_${index}`, description: 'Other.', handler: () => null })),
        defineTool({ name: 'find_note', description: 'Find notes.', routing: { intents: ['search'] }, handler: () => null }),
      ];
      const mutable: { name: string; description: string; routing: Partial<ToolRouting> } = {
        name: 'mutable',
        description: '',
        routing: { intents: ['lookup'] },
      };

      expect(router.route(definitions, 'search my notes', full(1)).ranking).toEqual(['find_note']);
      expect(router.route([...definitions, mutable], 'search again', full(1)).ranking).toEqual(['find_note']);
      mutable.routing = { intents: ['search'], tags: ['search'] };
      expect(router.route([...definitions, mutable], 'search again', full(1)).ranking).toEqual(['mutable']);
    });

    it('returns frozen results', () => {
      const selection = route(fillers(6), 'hello', full(2));

      expect(Object.isFrozen(selection)).toBe(true);
      expect(Object.isFrozen(selection.tools)).toBe(true);
      expect(Object.isFrozen(selection.ranking)).toBe(true);
    });
  });

  describe('route: invalid input', () => {
    it.each<[string, unknown]>([
      ['a negative budget other than UNLIMITED', { budget: -2, profile: 'full' }],
      ['a fractional budget', { budget: 2.5, profile: 'full' }],
      ['an unknown profile', { budget: 2, profile: 'large' }],
      ['alwaysInclude that is not a list of names', { budget: 2, profile: 'full', alwaysInclude: [1] }],
      ['no options', null],
    ])('throws INVALID_ARGUMENT for %s', (_case, options) => {
      expect(() => route(fillers(3), 'hello', options as ToolRouteOptions)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });

    it('throws INVALID_ARGUMENT for two tools with one name, naming it', () => {
      expect(() => route([tool('twice'), tool('twice')], 'x', full(1))).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining("'twice' appears twice") }),
      );
    });

    it('ignores hints that are not lists of text in a hand-built tool', () => {
      const odd = {
        name: 'odd',
        description: 'alpha',
        routing: { intents: 'alpha', tags: [42, null, 'alpha'] },
      } as unknown as RoutableTool;
      const tagged = tool('tagged', { tags: ['alpha'] });

      expect(route([odd, tagged, tool('plain')], 'alpha', full(1)).ranking).toEqual(['odd']);
      expect(route([odd, tool('zz_tagged', { tags: ['alpha'], intents: ['alpha'] }), tool('plain')], 'alpha', full(1)).ranking).toEqual([
        'zz_tagged',
      ]);
    });

    it('throws INVALID_ARGUMENT for a message that is not a string', () => {
      expect(() => route(fillers(2), undefined as unknown as string, full(1))).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    });
  });

  describe('route: properties', () => {
    const VOCABULARY = ['note', 'notes', 'delete', 'archive', 'invoice', 'report', 'status', 'editor', 'category', 'search', 'the', 'db'];
    const word = fc.constantFrom(...VOCABULARY);
    const words = fc.array(word, { maxLength: 3 });
    const routing = fc.record({ intents: words, domains: words, tags: words, examples: words }, { requiredKeys: [] });
    const toolsArbitrary = fc
      .uniqueArray(fc.tuple(word, word, fc.nat(99)), {
        minLength: 1,
        maxLength: 14,
        selector: ([first, second, id]) => `${first}_${second}_${id}`,
      })
      .chain((keys) =>
        fc.tuple(
          ...keys.map(([first, second, id]) =>
            fc
              .record({ routing, description: fc.array(word, { maxLength: 4 }).map((list) => list.join(' ')) })
              .map(({ routing: hints, description }): RoutableTool => ({ name: `${first}_${second}_${id}`, description, routing: hints })),
          ),
        ),
      );
    const scenario = fc.record({
      tools: toolsArbitrary,
      message: fc.array(word, { maxLength: 20 }).map((list) => list.join(' ')),
      budget: fc.oneof(fc.nat(16), fc.constant(UNLIMITED)),
      profile: fc.constantFrom('minimal' as const, 'standard' as const, 'full' as const),
      alwaysCount: fc.nat(2),
    });

    it('offers tools sorted by name, the same for the same input, whatever the registration order', () => {
      fc.assert(
        fc.property(scenario, ({ tools, message, budget, profile, alwaysCount }) => {
          const alwaysInclude = tools.slice(0, alwaysCount).map((routed) => routed.name.toUpperCase());
          const options = { budget, profile, alwaysInclude };
          const first = offered(tools, message, options);
          const again = offered(tools, message, options);
          const reversed = offered([...tools].reverse(), message, options);

          expect(first).toEqual([...first].sort());
          expect(again).toEqual(first);
          expect(reversed).toEqual(first);
        }),
      );
    });

    it('never offers more than the budget plus the always-included tools', () => {
      fc.assert(
        fc.property(scenario, ({ tools, message, budget, profile, alwaysCount }) => {
          const alwaysInclude = tools.slice(0, alwaysCount).map((routed) => routed.name);
          const selection = route(tools, message, { budget, profile, alwaysInclude });
          const always = Math.min(alwaysCount, tools.length);

          if (budget !== UNLIMITED) expect(selection.tools.length).toBeLessThanOrEqual(budget + always);
          expect(selection.alwaysIncluded).toHaveLength(always);
          expect(selection.tools.length).toBe(selection.ranking.length + always);
        }),
      );
    });

    it('offers every tool the message names when they fit the budget', () => {
      fc.assert(
        fc.property(scenario, fc.nat(), ({ tools, message, budget, profile }, pick) => {
          const text = `${message} use ${(tools[pick % tools.length] as RoutableTool).name}`;
          const mentions = ToolNameMentions.fromMessage(text);
          const named = tools.filter((routed) => mentions.names(routed.name)).map((routed) => routed.name);
          fc.pre(budget === UNLIMITED || named.length <= budget);
          const selection = route(tools, text, { budget, profile });

          expect(named.length).toBeGreaterThan(0);
          expect(selection.tools.map((routed) => routed.name)).toEqual(expect.arrayContaining(named));
        }),
      );
    });
  });
});
