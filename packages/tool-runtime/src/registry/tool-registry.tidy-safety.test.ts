import { EventDispatcher } from '@milpa/events';
import {
  ApprovalVerdict,
  type InterceptionSlot,
  InvocationDecision,
  ToolContext,
  Type,
  defineTool,
  type ApprovalGate,
  type ApprovalRequest,
  type InvocationRule,
} from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const REDACTED = '***REDACTED***';
const agent = () => ToolContext.mcp('req-tidy', 'agent:7', ['notes:write']);

const input = Type.Object(
  {
    tag: Type.Optional(Type.String({ 'x-milpa-protected': true })),
    owner: Type.Optional(Type.String({ pattern: '^user:[a-z]+$', 'x-milpa-protected': true })),
    status: Type.Optional(Type.String()),
    user_id: Type.Optional(Type.Integer({ minimum: 2 })),
    note_id: Type.Optional(Type.Integer()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20 })),
    token: Type.Optional(Type.Integer({ maximum: 9999 })),
  },
  { additionalProperties: false },
);

function recordingGate(answer: () => ApprovalVerdict = () => ApprovalVerdict.allow()) {
  const requests: ApprovalRequest[] = [];
  const gate: ApprovalGate = {
    check: (request) => {
      requests.push(request);
      return answer();
    },
    getResolution: () => ({ status: 'pending' }),
  };
  return { gate, requests };
}

function setup(options: ToolRegistryOptions = {}) {
  const logger = new RecordingLogger();
  const dispatcher = new EventDispatcher();
  const registry = new ToolRegistry({ logger, dispatcher, tidyArguments: true, ...options });
  const purge = vi.fn((args: Record<string, unknown>) => ({ purged: args }));
  const archive = vi.fn((args: Record<string, unknown>) => ({ archived: args }));
  const find = vi.fn((args: Record<string, unknown>) => ({ found: args }));
  registry.register(defineTool({ name: 'purge_notes', description: 'Delete notes', input, mutating: true, handler: purge }));
  registry.register(
    defineTool({
      name: 'archive_notes',
      description: 'Archive notes',
      input,
      mutating: true,
      requiresConfirmation: true,
      handler: archive,
    }),
  );
  registry.register(defineTool({ name: 'find_notes', description: 'Find notes', input, scopes: ['notes:read'], handler: find }));
  return { registry, logger, dispatcher, purge, archive, find };
}

describe('ToolRegistry', () => {
  describe('call: tidying never widens a call', () => {
    it('keeps a protected filter sent as * instead of dropping it, so the broadest default never runs', async () => {
      const { registry, purge } = setup();
      const result = await registry.call('purge_notes', { tag: '*' }, agent());
      expect(result.success).toBe(true);
      expect(purge).toHaveBeenCalledWith({ tag: '*' }, expect.anything());
      expect(result.meta).not.toHaveProperty('tidied');
    });

    it.each(['*', '%', 'all', '', '  '])(
      'validates a protected filter sent as %j as sent, and refuses what its schema refuses',
      async (value) => {
        const { registry, purge } = setup();
        const result = await registry.call('purge_notes', { owner: value }, agent());
        expect(result.meta['code']).toBe('VALIDATION_ERROR');
        expect(purge).not.toHaveBeenCalled();
      },
    );

    it('refuses null on a protected filter instead of dropping it', async () => {
      const { registry, purge } = setup();
      expect((await registry.call('purge_notes', { tag: null }, agent())).meta['code']).toBe('VALIDATION_ERROR');
      expect(purge).not.toHaveBeenCalled();
    });

    it('refuses an optional user_id 1 below its minimum 2 instead of acting on record 2', async () => {
      const { registry, purge } = setup();
      for (const value of [1, '1', 0, -5]) {
        const result = await registry.call('purge_notes', { user_id: value }, agent());
        expect(result.meta['code']).toBe('VALIDATION_ERROR');
        expect(result.meta).not.toHaveProperty('tidied');
      }
      expect(purge).not.toHaveBeenCalled();
    });

    it('refuses an identifier sent as *, % or null instead of dropping it', async () => {
      const { registry, purge } = setup();
      for (const value of ['*', '%', null, '']) {
        expect((await registry.call('purge_notes', { note_id: value }, agent())).meta['code']).toBe('VALIDATION_ERROR');
      }
      expect(purge).not.toHaveBeenCalled();
    });

    it('still tidies ordinary fields beside protected ones', async () => {
      const { registry, purge } = setup();
      const result = await registry.call('purge_notes', { tag: '%', status: '%', limit: 500, user_id: '7' }, agent());
      expect(purge).toHaveBeenCalledWith({ tag: '%', limit: 20, user_id: 7 }, expect.anything());
      expect(result.meta['tidied']).toEqual([
        { field: 'status', action: 'dropped' },
        { field: 'limit', action: 'bounded' },
        { field: 'user_id', action: 'converted' },
      ]);
    });
  });

  describe('call: clamps on identifiers', () => {
    function clampedRegistry() {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger });
      const handler = vi.fn((args: Record<string, unknown>) => args);
      registry.register(
        defineTool({
          name: 'move_note',
          description: 'Move a note',
          input: Type.Object({
            user_id: Type.Integer(),
            folderId: Type.Optional(Type.Integer({ minimum: 1 })),
            page: Type.Optional(Type.Integer()),
            depth: Type.Optional(Type.Integer({ maximum: 3, 'x-milpa-protected': true })),
          }),
          clamps: { user_id: [2, 10], folderId: [1, 5], page: [1, 5], depth: [0, 3] },
          handler,
        }),
      );
      return { registry, handler, logger };
    }

    it('never moves an identifier onto another record: user_id 1 reaches the handler as 1, not 2', async () => {
      const { registry, handler } = clampedRegistry();
      await registry.call('move_note', { user_id: 1, page: 99 }, ToolContext.cli());
      expect(handler).toHaveBeenCalledWith({ user_id: 1, page: 5 }, expect.anything());
    });

    it('validates an identifier or protected field as sent when a clamp would have moved it, and refuses a bad one', async () => {
      const { registry, handler } = clampedRegistry();
      expect((await registry.call('move_note', { user_id: 3, folderId: 0 }, ToolContext.cli())).meta['code']).toBe('VALIDATION_ERROR');
      expect((await registry.call('move_note', { user_id: 3, depth: 9 }, ToolContext.cli())).meta['code']).toBe('VALIDATION_ERROR');
      expect(handler).not.toHaveBeenCalled();
    });

    it('warns at registration about clamps it will not apply, and says so in inspect', () => {
      const { registry, logger } = clampedRegistry();
      expect(logger.messages('warn').join('\n')).toContain('move_note clamps user_id, folderId, depth');
      const step = registry.inspect('move_note', ToolContext.cli())?.getStep('clamp');
      expect(step?.source).toContain('page {min=1, max=5}');
      expect(step?.source).toContain('not applied to identifier or protected fields: user_id, folderId, depth');
    });
  });

  describe('call: a refusal never carries meta.tidied', () => {
    const tidyable = { status: '*', limit: 500 };

    it('leaves it out of a validation refusal', async () => {
      const { registry } = setup();
      const result = await registry.call('purge_notes', { ...tidyable, extra: 1 }, agent());
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(result.meta).not.toHaveProperty('tidied');
      expect(JSON.stringify(result)).not.toContain('tidied');
    });

    it('leaves it out of an authorization refusal, valid arguments or not', async () => {
      const { registry, find } = setup();
      const outsider = ToolContext.mcp('req-out', 'agent:9', ['other:read']);
      for (const args of [tidyable, { ...tidyable, extra: 1 }]) {
        const result = await registry.call('find_notes', args, outsider);
        expect(result.meta['code']).toBe('FORBIDDEN');
        expect(result.meta).not.toHaveProperty('tidied');
      }
      expect(find).not.toHaveBeenCalled();
    });

    it('leaves it out of an invocation rule denial', async () => {
      const rule: InvocationRule = { identifier: 'no.purge', evaluate: () => InvocationDecision.deny('never') };
      const { registry } = setup({ rules: [rule] });
      const result = await registry.call('purge_notes', tidyable, agent());
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(result.meta).not.toHaveProperty('tidied');
    });

    it('leaves it out of an approval denial and a listener veto', async () => {
      const { gate } = recordingGate(() => ApprovalVerdict.deny('no'));
      const denied = await setup({ approvalGate: gate }).registry.call('purge_notes', tidyable, agent());
      expect(denied.meta['code']).toBe('APPROVAL_DENIED');
      expect(denied.meta).not.toHaveProperty('tidied');
      const { registry, dispatcher } = setup();
      dispatcher.subscribe('tool.executing', (_name, payload) => (payload['slot'] as InterceptionSlot).stop());
      const vetoed = await registry.call('purge_notes', tidyable, agent());
      expect(vetoed.success).toBe(false);
      expect(vetoed.meta).not.toHaveProperty('tidied');
    });

    it('keeps it on a call that executed, failed in its handler, or waits for a person', async () => {
      const expected = [
        { field: 'status', action: 'dropped' },
        { field: 'limit', action: 'bounded' },
      ];
      const { registry } = setup();
      expect((await registry.call('purge_notes', tidyable, agent())).meta['tidied']).toEqual(expected);
      expect((await registry.call('archive_notes', tidyable, agent())).meta['tidied']).toEqual(expected);
      const { gate } = recordingGate(() => ApprovalVerdict.suspend());
      const held = await setup({ approvalGate: gate }).registry.call('purge_notes', tidyable, agent());
      expect(held.meta['code']).toBe('APPROVAL_PENDING');
      expect(held.meta['tidied']).toEqual(expected);
      const failing = new ToolRegistry({ tidyArguments: true, logger: new RecordingLogger() });
      failing.register(
        defineTool({
          name: 'boom',
          description: 'b',
          input,
          handler: () => {
            throw new Error('x');
          },
        }),
      );
      const failed = await failing.call('boom', tidyable, agent());
      expect(failed.meta['code']).toBe('INTERNAL_ERROR');
      expect(failed.meta['tidied']).toEqual(expected);
    });
  });

  describe('confirm and approve: what tidying changed is shown', () => {
    const sent = { status: '*', limit: 500, token: '123456', note_id: 4 };

    it('lists the changes, redacted, in the confirmation summary', async () => {
      const { registry, archive } = setup();
      const result = await registry.call('archive_notes', sent, agent());
      const summary = (result.data as { action_summary: string }).action_summary;
      expect(summary).toBe(
        `archive_notes(note_id=4, limit=20, token=${REDACTED}) [tidied: status dropped (sent "*"); limit bounded (sent 500, now 20); ` +
          `token converted (sent "${REDACTED}", now "${REDACTED}"); token bounded (sent "${REDACTED}", now "${REDACTED}")]`,
      );
      expect(result.message).toBe(summary);
      expect(JSON.stringify(result)).not.toContain('123456');
      expect(JSON.stringify(result)).not.toContain('9999');
      expect(archive).not.toHaveBeenCalled();
    });

    it('keeps the summary unchanged when tidying changed nothing', async () => {
      const { registry } = setup();
      const result = await registry.call('archive_notes', { note_id: 4, limit: 3 }, agent());
      expect((result.data as { action_summary: string }).action_summary).toBe('archive_notes(note_id=4, limit=3)');
    });

    it('gives the approval gate the tidied arguments and each change, redacted', async () => {
      const { gate, requests } = recordingGate();
      const { registry, purge } = setup({ approvalGate: gate });
      await registry.call('purge_notes', sent, agent());
      expect(requests).toHaveLength(1);
      const request = requests[0] as ApprovalRequest;
      expect(request.arguments).toEqual({ limit: 20, token: 9999, note_id: 4 });
      expect(request.redactedArguments).toEqual({ limit: 20, token: REDACTED, note_id: 4 });
      expect(request.tidied).toEqual([
        { field: 'status', action: 'dropped', sent: '*', present: false, value: undefined },
        { field: 'limit', action: 'bounded', sent: 500, present: true, value: 20 },
        { field: 'token', action: 'converted', sent: REDACTED, present: true, value: REDACTED },
        { field: 'token', action: 'bounded', sent: REDACTED, present: true, value: REDACTED },
      ]);
      expect(Object.isFrozen(request.tidied)).toBe(true);
      expect(JSON.stringify(request.tidied)).not.toMatch(/123456|9999/);
      expect(purge).toHaveBeenCalledWith({ limit: 20, token: 9999, note_id: 4 }, expect.anything());
    });

    it('gives the approval gate an empty list when tidying changed nothing or is off', async () => {
      const { gate, requests } = recordingGate();
      await setup({ approvalGate: gate }).registry.call('purge_notes', { note_id: 4 }, agent());
      await setup({ approvalGate: gate, tidyArguments: false }).registry.call('purge_notes', { note_id: 4, status: '*' }, agent());
      expect(requests.map((request) => request.tidied)).toEqual([[], []]);
    });

    it('lists no changes for a confirmation replay, whose arguments are the first call’s', async () => {
      const { gate, requests } = recordingGate();
      const { registry, archive } = setup({ approvalGate: gate });
      const first = await registry.call('archive_notes', { note_id: 4 }, agent());
      await registry.call('archive_notes', { note_id: 9, status: '*' }, agent(), { confirmToken: first.getConfirmToken() as string });
      expect(archive).toHaveBeenCalledWith({ note_id: 4 }, expect.anything());
      expect(requests).toHaveLength(1);
      expect(requests[0]?.tidied).toEqual([]);
    });
  });
});
