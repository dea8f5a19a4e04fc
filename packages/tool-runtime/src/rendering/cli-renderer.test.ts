import { MilpaError, ToolResult, type ContentBlock } from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CliRenderer } from './cli-renderer.js';

// ANSI pieces: green, yellow, red, reset colour, bold, reset bold.
const G = '\u001b[32m';
const Y = '\u001b[33m';
const R = '\u001b[31m';
const E = '\u001b[39m';
const B = '\u001b[1m';
const b = '\u001b[22m';

const plain = new CliRenderer();
const color = new CliRenderer({ color: true });
const dashes50 = '-'.repeat(50);
const dashes40 = '-'.repeat(40);

const listResult = ToolResult.paginated(
  [
    { id: 1, nombre: 'Ana', available: true },
    { id: 2, name: 'Beto', available: false },
    { id: 3, title: 'Caro' },
  ],
  2,
  12,
  2,
  'Clientes',
);

const detailResult = new ToolResult(true, { nombre: 'Ana', activo: true, baja: false, notas: null, tags: ['a'] }, 'ficha completa', null, {
  type: 'detail',
  entity: 'Cliente',
  actions: [{ label: 'Editar', action: 'clients.edit' }, 'clients.delete'],
});

const tokenResult = new ToolResult(
  true,
  { requires_confirmation: true, confirm_token: 'abc123', action_summary: 'delete_note(id=42)', expires_at: '2026-08-15T14:08:11+00:00' },
  'delete_note(id=42)',
  null,
  { tool: 'delete_note', type: 'confirmation', requires_confirmation: true },
);

const replay =
  `To confirm, call 'delete_note' again with confirm_token "abc123" before 2026-08-15T14:08:11+00:00; the first ` +
  `call's arguments are replayed. To cancel, let the token expire.`;

const planResult = ToolResult.success({
  plan: {
    tool: 'publish',
    mutating: true,
    requires_confirmation: false,
    scopes_required: ['write'],
    timeout: 30,
    timeout_ms: 30000,
    args: { value: 42 },
  },
});

const contentBlocks: ContentBlock[] = [
  { type: 'text', text: 'Quarterly numbers' },
  { type: 'image', data: 'A'.repeat(1640), mimeType: 'image/png' },
  { type: 'resource_link', uri: 'file:///report.pdf', name: 'report' },
];

describe('CliRenderer', () => {
  describe('constructor', () => {
    it('throws INVALID_ARGUMENT when color is neither a boolean nor auto', () => {
      expect(() => new CliRenderer({ color: 'yes' as never })).toThrow(MilpaError);
    });
  });

  describe("constructor: color 'auto'", () => {
    const failure = ToolResult.error('disk full');
    afterEach(() => {
      vi.unstubAllEnvs();
    });

    it('colours when FORCE_COLOR asks for it, even on a pipe', () => {
      vi.stubEnv('FORCE_COLOR', '1');
      vi.stubEnv('NO_COLOR', '1');
      expect(new CliRenderer({ color: 'auto', stream: { isTTY: false } }).render(failure)).toBe(`${R}✗ Error: disk full${E}\n`);
    });

    it('writes plain text when NO_COLOR is set, even on a terminal', () => {
      vi.stubEnv('FORCE_COLOR', undefined);
      vi.stubEnv('NO_COLOR', '1');
      expect(new CliRenderer({ color: 'auto', stream: { isTTY: true } }).render(failure)).toBe('✗ Error: disk full\n');
    });

    it('colours on a terminal and writes plain text when the stream is not one', () => {
      vi.stubEnv('FORCE_COLOR', undefined);
      vi.stubEnv('NO_COLOR', undefined);
      vi.stubEnv('TERM', 'xterm-256color');
      expect(new CliRenderer({ color: 'auto', stream: { isTTY: true } }).render(failure)).toBe(`${R}✗ Error: disk full${E}\n`);
      expect(new CliRenderer({ color: 'auto', stream: { isTTY: false } }).render(failure)).toBe('✗ Error: disk full\n');
      expect(new CliRenderer({ color: 'auto', stream: {} }).render(failure)).toBe('✗ Error: disk full\n');
    });
  });

  describe('supports', () => {
    it('claims only the cli channel', () => {
      expect(plain.supports('cli')).toBe(true);
      for (const channel of ['tui', 'telegram', 'default', 'CLI']) expect(plain.supports(channel)).toBe(false);
    });
  });

  describe('render: list', () => {
    it('shows the title, the rows with markers and the page footer in plain text', () => {
      expect(plain.render(listResult)).toBe(
        `Clientes\n${dashes50}\n  [OK] #1    Ana\n  [--] #2    Beto\n   #3    Caro\n${dashes50}\nPage 2/6 (12 total items)\n`,
      );
    });

    it('tints the title green and the footer yellow with colour', () => {
      expect(color.render(listResult)).toBe(
        `${G}Clientes${E}\n${dashes50}\n  [OK] #1    Ana\n  [--] #2    Beto\n   #3    Caro\n${dashes50}\n${Y}Page 2/6 (12 total ` +
          `items)${E}\n`,
      );
    });

    it('says No results found. when the list is empty', () => {
      const empty = ToolResult.paginated([], 1, 0, 10, 'Clientes');
      expect(plain.render(empty)).toBe(`Clientes\n${dashes50}\nNo results found.\n${dashes50}\nPage 1/0 (0 total items)\n`);
      expect(color.render(empty)).toContain(`${Y}No results found.${E}\n`);
    });

    it("titles the list 'Results' when it has no message", () => {
      expect(plain.render(ToolResult.paginated([{ id: 9, name: 'x' }], 1, 1, 5)).startsWith(`Results\n${dashes50}\n`)).toBe(true);
    });
  });

  describe('render: detail', () => {
    it('labels fields, reads booleans and null as words, shows arrays as JSON and lists actions in plain text', () => {
      expect(plain.render(detailResult)).toBe(
        [
          'Cliente - ficha completa',
          '='.repeat(40),
          '  Nombre:         Ana',
          '  Activo:         Yes',
          '  Baja:           No',
          '  Notas:          N/A',
          '  Tags:           ["a"]',
          '',
          'Available actions:',
          '  - Editar: clients.edit',
          '  - clients.delete',
          '',
        ].join('\n'),
      );
    });

    it('tints the entity, labels, Yes, No and N/A with colour', () => {
      expect(color.render(detailResult)).toBe(
        [
          `${G}Cliente${E} - ficha completa`,
          '='.repeat(40),
          `  ${Y}Nombre:        ${E} Ana`,
          `  ${Y}Activo:        ${E} ${G}Yes${E}`,
          `  ${Y}Baja:          ${E} ${Y}No${E}`,
          `  ${Y}Notas:         ${E} ${Y}N/A${E}`,
          `  ${Y}Tags:          ${E} ["a"]`,
          '',
          `${G}Available actions:${E}`,
          '  - Editar: clients.edit',
          '  - clients.delete',
          '',
        ].join('\n'),
      );
    });

    it("names the entity 'Item' and omits the message when neither is given", () => {
      expect(plain.render(new ToolResult(true, { a: 1 }, null, null, { type: 'detail' }))).toBe(
        `Item\n${'='.repeat(40)}\n  A:              1\n`,
      );
    });
  });

  describe('render: confirmation', () => {
    const confirmation = ToolResult.confirmation('¿Borrar el cliente?', { cliente: 'Ana', facturas: 3 }, 'delete', 'cliente', 7);

    it('spells out what is about to happen and how to answer in plain text', () => {
      expect(plain.render(confirmation)).toBe(
        `⚠ CONFIRMATION REQUIRED\n${dashes40}\n¿Borrar el cliente?\n\n  Cliente: Ana\n  Facturas: ` +
          `3\n\nType 'yes' to confirm or 'no' to cancel.\n`,
      );
    });

    it('makes the heading bold yellow and the prompt yellow with colour', () => {
      expect(color.render(confirmation)).toBe(
        `${B}${Y}⚠ CONFIRMATION REQUIRED${E}${b}\n${dashes40}\n¿Borrar el cliente?\n\n  Cliente: Ana\n  Facturas: 3\n\n${Y}Type ` +
          `'yes' to confirm or 'no' to cancel.${E}\n`,
      );
    });
  });

  describe('render: blocked', () => {
    it('carries the reason and the way out in plain text', () => {
      expect(plain.render(ToolResult.blocked('fuera de horario', 'Intenta a las 9:00'))).toBe(
        `⛔ OPERATION BLOCKED\n${dashes40}\nfuera de horario\n\n💡 Suggestion: Intenta a las 9:00\n`,
      );
    });

    it('makes the heading bold red, the reason red and the suggestion label green with colour', () => {
      expect(color.render(ToolResult.blocked('fuera de horario', 'Intenta a las 9:00'))).toBe(
        `${B}${R}⛔ OPERATION BLOCKED${E}${b}\n${dashes40}\n${R}fuera de horario${E}\n\n${G}💡 Suggestion:${E} Intenta a las 9:00\n`,
      );
    });

    it('has no suggestion line when there is none', () => {
      const rendered = plain.render(ToolResult.blocked('sin permiso'));
      expect(rendered).toBe(`⛔ OPERATION BLOCKED\n${dashes40}\nsin permiso\n`);
      expect(rendered).not.toContain('Suggestion');
    });
  });

  describe('render: error', () => {
    it('is exactly one line in plain text', () => {
      expect(plain.render(ToolResult.error('no se pudo guardar'))).toBe('✗ Error: no se pudo guardar\n');
    });

    it('is one red line with colour', () => {
      expect(color.render(ToolResult.error('no se pudo guardar'))).toBe(`${R}✗ Error: no se pudo guardar${E}\n`);
    });
  });

  describe('render: generic', () => {
    it('shows ✓, the message and the data fields on success', () => {
      expect(plain.render(ToolResult.success({ filas_afectadas: 3 }, 'listo'))).toBe('✓ listo\n  Filas afectadas: 3\n');
      expect(color.render(ToolResult.success({ filas_afectadas: 3 }, 'listo'))).toBe(`${G}✓${E} listo\n  Filas afectadas: 3\n`);
    });

    it('leaves out the fields that carry no value', () => {
      const granted = ToolResult.success({ status: 'passed', reason: null, missing: [], metadata: {} }, 'Granted');
      expect(plain.render(granted)).toBe('✓ Granted\n  Status: passed\n');
    });

    it('marks a failure of no particular type with ✗', () => {
      expect(plain.render(new ToolResult(false, null, null, 'algo salió mal'))).toBe('✗ algo salió mal\n');
      expect(color.render(new ToolResult(false, null, null, 'algo salió mal'))).toBe(`${R}✗${E} algo salió mal\n`);
    });

    it('shows a bare value instead of dropping it', () => {
      expect(plain.render(ToolResult.success('pong'))).toBe('✓ pong\n');
      expect(plain.render(ToolResult.success(3, 'Counted'))).toBe('✓ Counted\n  3\n');
    });
  });

  describe('render: confirm-token request', () => {
    it('shows the action, the token, the expiry and how to replay in plain text', () => {
      expect(plain.render(tokenResult)).toBe(
        `⚠ CONFIRMATION REQUIRED\n${dashes40}\ndelete_note(id=42)\n\n  Confirm token: ` +
          `abc123\n  Expires at: 2026-08-15T14:08:11+00:00\n\n${replay}\n`,
      );
    });

    it('tints the heading, the token and the replay hint with colour', () => {
      expect(color.render(tokenResult)).toBe(
        `${B}${Y}⚠ CONFIRMATION REQUIRED${E}${b}\n${dashes40}\ndelete_note(id=42)\n\n  Confirm token: ${G}abc123${E}\n  Expires ` +
          `at: 2026-08-15T14:08:11+00:00\n\n${Y}${replay}${E}\n`,
      );
    });

    it('never offers a yes/no prompt, which could not redeem the token', () => {
      expect(plain.render(tokenResult)).not.toContain("Type 'yes'");
    });
  });

  describe('render: plan mode', () => {
    it('says the call was checked but not executed and lists the plan in plain text', () => {
      expect(plain.render(planResult)).toBe(
        [
          "PLAN MODE: 'publish' was checked but not executed",
          dashes40,
          '  Mutating: Yes',
          '  Requires confirmation: No',
          '  Scopes required: ["write"]',
          '  Timeout: 30 s',
          '  Args: {"value":42}',
          '',
        ].join('\n'),
      );
    });

    it('tints the heading green and the words Yes and No with colour', () => {
      expect(color.render(planResult)).toBe(
        [
          `${G}PLAN MODE: 'publish' was checked but not executed${E}`,
          dashes40,
          `  Mutating: ${G}Yes${E}`,
          `  Requires confirmation: ${Y}No${E}`,
          '  Scopes required: ["write"]',
          '  Timeout: 30 s',
          '  Args: {"value":42}',
          '',
        ].join('\n'),
      );
    });
  });

  describe('render: content blocks', () => {
    it('prints text blocks and bracketed placeholders in plain text', () => {
      expect(plain.render(ToolResult.content(contentBlocks, 'Report ready'))).toBe(
        '✓ Report ready\nQuarterly numbers\n[image: image/png, 1.2 KB]\n[link: report <file:///report.pdf>]\n',
      );
    });

    it('tints the placeholders yellow with colour', () => {
      expect(color.render(ToolResult.content(contentBlocks))).toBe(
        `Quarterly numbers\n${Y}[image: image/png, 1.2 KB]${E}\n${Y}[link: report <file:///report.pdf>]${E}\n`,
      );
    });
  });

  describe('render: hostile data', () => {
    const evil = 'x\u001b]52;c;ZXZpbA==\u0007\u001b[2J\u009b31my';
    const hostile = [
      ToolResult.success({ [evil]: evil }, evil),
      ToolResult.error(evil),
      new ToolResult(false, null, null, evil),
      ToolResult.blocked(evil, evil),
      ToolResult.paginated([{ id: evil, name: evil, available: true }], 1, 1, 1, evil),
      new ToolResult(true, { [evil]: [evil] }, evil, null, {
        type: 'detail',
        entity: evil,
        actions: [evil, { label: evil, action: evil }],
      }),
      ToolResult.confirmation(evil, { [evil]: evil }, 'a', 't', 1),
      new ToolResult(true, { confirm_token: evil, action_summary: evil, expires_at: evil }, evil, null, { tool: evil }),
      ToolResult.success({ plan: { tool: evil, args: { [evil]: evil } } }),
      ToolResult.content(
        [
          { type: 'text', text: evil },
          { type: 'resource_link', uri: evil, name: evil },
        ],
        evil,
      ),
    ];

    it('never lets a control character through in plain text', () => {
      for (const result of hostile) {
        const rendered = plain.render(result);
        expect(rendered).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
        expect(rendered).toContain('x\\x1b]52;c;ZXZpbA==\\x07\\x1b[2J\\x9b31my');
      }
    });

    it('emits only its own colour codes when colour is on', () => {
      const own = /\u001b\[(?:1|22|31|32|33|39)m/g;
      for (const result of hostile) {
        const rendered = color.render(result).replace(own, '');
        expect(rendered).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      }
    });

    it('throws INVALID_ARGUMENT when given something other than a ToolResult', () => {
      expect(() => plain.render('nope' as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });
});
