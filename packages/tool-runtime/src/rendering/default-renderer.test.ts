import { ToolResult, type ContentBlock } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { DefaultRenderer } from './default-renderer.js';

const render = (result: ToolResult): string => new DefaultRenderer().render(result);

describe('DefaultRenderer', () => {
  describe('supports', () => {
    it('claims every channel because it is the last resort', () => {
      const renderer = new DefaultRenderer();
      for (const channel of ['cli', 'telegram', 'an-invented-channel', 'default']) expect(renderer.supports(channel)).toBe(true);
    });
  });

  describe('render: success', () => {
    it('says Operation completed successfully. when a success has no message', () => {
      expect(render(ToolResult.success())).toBe('Operation completed successfully.');
    });

    it('renders each list item as #id: name with the page footer when the result is paginated', () => {
      const result = ToolResult.paginated(
        [
          { id: 3, nombre: 'Ana' },
          { id: 4, name: 'Beto' },
          { id: 5, title: 'Caro' },
        ],
        1,
        9,
        3,
        'Clientes',
      );
      expect(render(result)).toBe('Clientes\n\n#3: Ana\n#4: Beto\n#5: Caro\n\nPage 1 of 3 (9 items total)');
    });

    it('numbers an item by position and shows N/A when it has no id or name', () => {
      const result = ToolResult.paginated([{ id: 1 }, { colour: 'red' }], 1, 2, 10);
      expect(render(result)).toBe('Operation completed successfully.\n\n#1: N/A\n#2: N/A\n\nPage 1 of 1 (2 items total)');
    });

    it('renders detail fields as - Label: value lines with arrays as JSON', () => {
      const result = ToolResult.detail({ nombre_completo: 'Ana', tags: ['a', 'b'] }, 'Cliente');
      expect(render(result)).toBe('Operation completed successfully.\n\n- Nombre completo: Ana\n- Tags: ["a","b"]');
    });

    it('reads booleans as Yes/No and leaves out fields with no value when the result is generic', () => {
      expect(render(ToolResult.success({ active: true, archived: false, note: null, tags: [], extra: {}, memo: '' }, 'Saved'))).toBe(
        'Saved\n\n- Active: Yes\n- Archived: No',
      );
    });

    it('shows only the message when no field carries a value', () => {
      expect(render(ToolResult.success({ reason: null, missing: [] }, 'Granted'))).toBe('Granted');
    });

    it('keeps an empty field of a detail result as N/A, because it is part of the entity', () => {
      expect(render(ToolResult.detail({ name: 'Ana', note: null }, 'Client'))).toBe(
        'Operation completed successfully.\n\n- Name: Ana\n- Note: N/A',
      );
    });

    it('shows a bare value when the tool returned one without a message', () => {
      expect(render(ToolResult.success('hello'))).toBe('hello');
      expect(render(ToolResult.success(0))).toBe('0');
      expect(render(ToolResult.success(42, 'Counted'))).toBe('Counted\n\n42');
    });

    it('renders the host confirmation() shape as a message and its details', () => {
      const result = ToolResult.confirmation('Delete the client?', { client: 'Ana', invoices: 3 }, 'delete', 'client', 7);
      expect(render(result)).toBe('Delete the client?\n\n- Client: Ana\n- Invoices: 3');
    });

    it('does not throw when the data holds a bigint or a cycle', () => {
      const cyclic: Record<string, unknown> = {};
      cyclic['self'] = cyclic;
      expect(render(ToolResult.success({ big: { n: 10n }, cyclic }, 'Odd'))).toBe(
        'Odd\n\n- Big: {"n":"10"}\n- Cyclic: [unserializable value]',
      );
    });
  });

  describe('render: failure', () => {
    it('renders Error: and the error when the result failed', () => {
      expect(render(ToolResult.error('could not save'))).toBe('Error: could not save');
    });

    it('says Unknown error when a failure carries no error', () => {
      expect(render(new ToolResult(false))).toBe('Error: Unknown error');
    });

    it('adds the suggestion when the result is blocked', () => {
      expect(render(ToolResult.blocked('outside office hours', 'Try after 9:00'))).toBe(
        'Error: outside office hours\n\nSuggestion: Try after 9:00',
      );
    });

    it('adds no suggestion line when a blocked result has none', () => {
      expect(render(ToolResult.blocked('Tool execution vetoed by an event listener'))).toBe(
        'Error: Tool execution vetoed by an event listener',
      );
    });
  });

  describe('render: confirm-token request', () => {
    it('shows the token, its expiry and how to replay the call', () => {
      const result = new ToolResult(
        true,
        {
          requires_confirmation: true,
          confirm_token: 'abc123',
          action_summary: 'delete_note(id=42)',
          expires_at: '2026-08-15T14:08:11+00:00',
        },
        'delete_note(id=42)',
        null,
        { tool: 'delete_note', type: 'confirmation', requires_confirmation: true },
      );
      expect(render(result)).toBe(
        [
          'Confirmation required: delete_note(id=42)',
          '- Confirm token: abc123',
          '- Expires at: 2026-08-15T14:08:11+00:00',
          '',
          `To confirm, call 'delete_note' again with confirm_token "abc123" before 2026-08-15T14:08:11+00:00; the first call's ` +
            `arguments are replayed. To cancel, let the token expire.`,
        ].join('\n'),
      );
    });

    it('still explains the replay when the tool name and expiry are unknown', () => {
      const result = ToolResult.success({ confirm_token: 'tok' });
      expect(render(result)).toBe(
        'Confirmation required.\n- Confirm token: tok\n\nTo confirm, repeat the call with confirm_token "tok"; the first call\'s ' +
          'arguments are replayed. To cancel, let the token expire.',
      );
    });
  });

  describe('render: plan mode', () => {
    it('says nothing was executed and lists the plan when the call ran in plan mode', () => {
      const result = ToolResult.success(
        {
          plan: {
            tool: 'publish',
            mutating: true,
            requires_confirmation: false,
            scopes_required: ['write'],
            timeout: 30,
            args: { value: 42 },
          },
        },
        null,
        { tool: 'publish', took_ms: 1 },
      );
      expect(render(result)).toBe(
        [
          "Plan mode: 'publish' was checked but not executed.",
          '',
          '- Mutating: Yes',
          '- Requires confirmation: No',
          '- Scopes required: ["write"]',
          '- Timeout: 30 s',
          '- Args: {"value":42}',
        ].join('\n'),
      );
    });

    it('treats a tool result with more keys than plan as ordinary data', () => {
      expect(render(ToolResult.success({ plan: { tool: 'x' }, price: 5 }, 'Subscription'))).toBe(
        'Subscription\n\n- Plan: {"tool":"x"}\n- Price: 5',
      );
    });
  });

  describe('render: content blocks', () => {
    const blocks: ContentBlock[] = [
      { type: 'text', text: 'Quarterly numbers' },
      { type: 'image', data: 'A'.repeat(1640), mimeType: 'image/png' },
      { type: 'audio', data: 'AAA=', mimeType: 'audio/wav' },
      { type: 'resource', resource: { uri: 'file:///notes.md', text: '# Notes' } },
      { type: 'resource', resource: { uri: 'file:///photo.jpg', blob: 'AAAA', mimeType: 'image/jpeg' } },
      { type: 'resource_link', uri: 'file:///report.pdf', name: 'report' },
    ];

    it('renders text as text and binary or linked content as bracketed lines', () => {
      expect(render(ToolResult.content(blocks, 'Here is the report'))).toBe(
        [
          'Here is the report',
          '',
          'Quarterly numbers',
          '[image: image/png, 1.2 KB]',
          '[audio: audio/wav, 2 B]',
          '# Notes',
          '[resource: file:///photo.jpg]',
          '[link: report <file:///report.pdf>]',
        ].join('\n'),
      );
    });

    it('shows only the blocks when there is no message', () => {
      expect(render(ToolResult.content([{ type: 'text', text: 'hi' }]))).toBe('hi');
    });
  });

  describe('render: hostile data', () => {
    it('escapes terminal control sequences wherever tool data appears', () => {
      const evil = 'x\u001b]0;pwned\u0007\u001b[2J\ry';
      const rendered = [
        render(ToolResult.success({ [evil]: evil }, evil)),
        render(ToolResult.error(evil)),
        render(ToolResult.blocked(evil, evil)),
        render(ToolResult.paginated([{ id: evil, name: evil }], 1, 1, 1)),
        render(ToolResult.content([{ type: 'text', text: evil }])),
      ].join('\n');
      expect(rendered).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(rendered).toContain('x\\x1b]0;pwned\\x07\\x1b[2J\\x0dy');
    });

    it('throws INVALID_ARGUMENT when given something other than a ToolResult', () => {
      expect(() => new DefaultRenderer().render({ success: true } as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });
});
