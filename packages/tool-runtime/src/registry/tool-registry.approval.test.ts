import { EventDispatcher } from '@milpa/events';
import {
  ApprovalVerdict,
  MilpaError,
  ToolContext,
  type ToolDeniedEvent,
  Type,
  defineTool,
  type ApprovalGate,
  type ApprovalRequest,
} from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const agent = () => ToolContext.mcp('req-approval', 'agent:7', ['notes:write']);

function setup(options: ToolRegistryOptions = {}) {
  const logger = new RecordingLogger();
  const dispatcher = new EventDispatcher();
  const events: { name: string; event: unknown }[] = [];
  dispatcher.subscribe('tool.*', (name, payload) => {
    events.push({ name, event: payload['event'] });
  });
  const registry = new ToolRegistry({ logger, dispatcher, ...options });
  const deleteNote = vi.fn((args: { id: string }) => ({ deleted: args.id }));
  const shell = vi.fn((args: { command: string }) => ({ ran: args.command }));
  const readNote = vi.fn((args: { id: string }) => ({ id: args.id }));
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      input: Type.Object({ id: Type.String(), password: Type.Optional(Type.String()) }, { additionalProperties: false }),
      mutating: true,
      handler: deleteNote,
    }),
  );
  registry.register(
    defineTool({
      name: 'shell',
      description: 'Run a command',
      input: Type.Object({ command: Type.String() }),
      mutating: ({ command }) => command !== 'ls',
      handler: shell,
    }),
  );
  registry.register(
    defineTool({ name: 'read_note', description: 'Read a note', input: Type.Object({ id: Type.String() }), handler: readNote }),
  );
  return { registry, logger, events, deleteNote, shell, readNote };
}

function recordingGate(answer: (request: ApprovalRequest) => unknown = () => ApprovalVerdict.allow()) {
  const requests: ApprovalRequest[] = [];
  const gate: ApprovalGate = {
    check: (request) => {
      requests.push(request);
      return answer(request) as ApprovalVerdict;
    },
  };
  return { gate, requests };
}

function approvalAudits(logger: RecordingLogger) {
  return logger.auditRecords().filter((record) => String(record['outcome']).startsWith('approval_'));
}

describe('ToolRegistry', () => {
  describe('approve stage: which calls the gate is asked about', () => {
    it('asks the gate about a mutating call and runs it when the gate allows', async () => {
      const { gate, requests } = recordingGate();
      const { registry, deleteNote } = setup({ approvalGate: gate });
      const result = await registry.call('delete_note', { id: 'n1' }, agent());
      expect(result.success).toBe(true);
      expect(deleteNote).toHaveBeenCalledTimes(1);
      expect(requests).toHaveLength(1);
    });

    it('never asks the gate about a read-only tool', async () => {
      const { gate, requests } = recordingGate(() => ApprovalVerdict.deny('no'));
      const { registry, readNote } = setup({ approvalGate: gate });
      expect((await registry.call('read_note', { id: 'n1' }, agent())).success).toBe(true);
      expect(readNote).toHaveBeenCalledTimes(1);
      expect(requests).toHaveLength(0);
    });

    it('asks about a per-call tool only when its arguments make it mutating', async () => {
      const { gate, requests } = recordingGate(() => ApprovalVerdict.deny('Commands need a reviewer.'));
      const { registry, shell } = setup({ approvalGate: gate });
      expect((await registry.call('shell', { command: 'ls' }, agent())).success).toBe(true);
      const refused = await registry.call('shell', { command: 'rm -rf /' }, agent());
      expect(refused.meta['code']).toBe('APPROVAL_DENIED');
      expect(shell).toHaveBeenCalledTimes(1);
      expect(requests.map((request) => request.arguments)).toEqual([{ command: 'rm -rf /' }]);
    });

    it('hands the gate the tool, frozen validated arguments, redacted arguments and the caller', async () => {
      const { gate, requests } = recordingGate();
      const { registry } = setup({ approvalGate: gate });
      const context = agent().with({ runId: 'run_42' });
      await registry.call('delete_note', { id: 'n1', password: 'hunter2' }, context);
      const request = requests[0]!;
      expect(request.toolName).toBe('delete_note');
      expect(request.arguments).toEqual({ id: 'n1', password: 'hunter2' });
      expect(Object.isFrozen(request.arguments)).toBe(true);
      expect(request.redactedArguments).toEqual({ id: 'n1', password: '***REDACTED***' });
      expect(request).toMatchObject({ principal: 'agent:7', channel: 'mcp', runId: 'run_42', requestId: 'req-approval', mutating: true });
      expect(request.context).toBe(context);
      expect(request.definition.name).toBe('delete_note');
      expect(request.approvalId).toMatch(/^[0-9a-f]{32}$/);
      expect(Object.isFrozen(request)).toBe(true);
    });

    it('uses a per-tool gate over the default one, and null turns approval off for that tool', async () => {
      const strict = recordingGate(() => ApprovalVerdict.deny('Deletes need a manager.'));
      const lenient = recordingGate();
      const { registry, deleteNote, shell } = setup({
        approvalGate: strict.gate,
        approvalGates: { delete_note: lenient.gate, shell: null },
      });
      expect((await registry.call('delete_note', { id: 'n1' }, agent())).success).toBe(true);
      expect((await registry.call('shell', { command: 'rm x' }, agent())).success).toBe(true);
      expect(deleteNote).toHaveBeenCalledTimes(1);
      expect(shell).toHaveBeenCalledTimes(1);
      expect(strict.requests).toHaveLength(0);
      expect(lenient.requests).toHaveLength(1);
    });

    it('does not ask the gate in plan mode, which stops before approval', async () => {
      const { gate, requests } = recordingGate(() => ApprovalVerdict.deny('no'));
      const { registry, deleteNote } = setup({ approvalGate: gate });
      const plan = await registry.call('delete_note', { id: 'n1' }, agent().asPlan());
      expect(plan.success).toBe(true);
      expect(requests).toHaveLength(0);
      expect(deleteNote).not.toHaveBeenCalled();
    });

    it('runs mutating calls without asking when no gate is configured', async () => {
      const { registry, deleteNote } = setup();
      expect((await registry.call('delete_note', { id: 'n1' }, agent())).success).toBe(true);
      expect(deleteNote).toHaveBeenCalledTimes(1);
    });
  });

  describe('approve stage: denial', () => {
    it('returns APPROVAL_DENIED with the reason, runs nothing, audits and dispatches tool.denied', async () => {
      const { gate } = recordingGate(() => ApprovalVerdict.deny('Deleting notes needs a manager.'));
      const { registry, deleteNote, logger, events } = setup({ approvalGate: gate });
      const result = await registry.call('delete_note', { id: 'n1', password: 'hunter2' }, agent());
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(result.error).toBe("Call to 'delete_note' was not approved: Deleting notes needs a manager.");
      expect(deleteNote).not.toHaveBeenCalled();
      const [audit] = approvalAudits(logger);
      expect(audit).toMatchObject({ outcome: 'approval_denied', code: 'APPROVAL_DENIED', tool: 'delete_note', principal: 'agent:7' });
      expect(JSON.stringify(audit)).not.toContain('hunter2');
      const denied = events.filter((entry) => entry.name === 'tool.denied').map((entry) => entry.event as ToolDeniedEvent);
      expect(denied).toHaveLength(1);
      expect(denied[0]?.reason).toBe('approval_denied');
      expect(events.some((entry) => entry.name === 'tool.executing')).toBe(false);
    });

    it('lets the agent loop carry on: the next call runs normally', async () => {
      let allow = false;
      const { gate } = recordingGate(() => (allow ? ApprovalVerdict.allow() : ApprovalVerdict.deny('not now')));
      const { registry, deleteNote } = setup({ approvalGate: gate });
      expect((await registry.call('delete_note', { id: 'n1' }, agent())).meta['code']).toBe('APPROVAL_DENIED');
      allow = true;
      expect((await registry.call('delete_note', { id: 'n1' }, agent())).success).toBe(true);
      expect(deleteNote).toHaveBeenCalledTimes(1);
    });

    it('denies when the gate suspends but cannot tell a later decision', async () => {
      const { gate } = recordingGate(() => ApprovalVerdict.suspend());
      const { registry, deleteNote } = setup({ approvalGate: gate });
      const result = await registry.call('delete_note', { id: 'n1' }, agent());
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(result.error).toContain('cannot hold calls for a later decision');
      expect(deleteNote).not.toHaveBeenCalled();
    });
  });

  describe('approve stage: fail-closed', () => {
    const failures: [string, () => unknown][] = [
      [
        'throws',
        () => {
          throw new Error('gate exploded with hunter2');
        },
      ],
      ['rejects', () => Promise.reject(new Error('gate exploded with hunter2'))],
      ['answers undefined', () => undefined],
      ['answers true', () => true],
      ['answers the string allow', () => 'allow'],
      ['answers a look-alike with an unknown kind', () => ({ kind: 'approve' })],
      ['answers a denial without a reason', () => ({ kind: 'deny', reason: '' })],
      ['resolves to garbage', () => Promise.resolve({ allowed: true })],
    ];

    it.each(failures)('denies, runs nothing and audits when the gate %s', async (_label, answer) => {
      const { gate } = recordingGate(answer);
      const { registry, deleteNote, logger } = setup({ approvalGate: gate });
      const result = await registry.call('delete_note', { id: 'n1', password: 'hunter2' }, agent());
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(result.error).toBe("Call to 'delete_note' refused: the approval gate failed (fail-closed).");
      expect(result.meta).not.toHaveProperty('store');
      expect(deleteNote).not.toHaveBeenCalled();
      expect(approvalAudits(logger)).toEqual([expect.objectContaining({ outcome: 'approval_denied', code: 'APPROVAL_DENIED' })]);
      expect(logger.dump()).not.toContain('hunter2');
    });

    it('logs why an answer that is not an ApprovalVerdict denies the call', async () => {
      const { gate } = recordingGate(() => ({ kind: 'approve' }));
      const { registry, logger } = setup({ approvalGate: gate });
      await registry.call('delete_note', { id: 'n1' }, agent());
      expect(logger.messages('error')).toEqual([
        "[ToolRegistry] the approval gate failed for 'delete_note': the gate answered something that is not an ApprovalVerdict; " +
          'the call is denied (fail-closed)',
      ]);
    });

    it('denies when the gate never answers and the caller aborts, and the handler never runs', async () => {
      const controller = new AbortController();
      const gate: ApprovalGate = {
        check: () => {
          controller.abort();
          return new Promise<ApprovalVerdict>(() => undefined);
        },
      };
      const { registry, deleteNote, logger } = setup({ approvalGate: gate });
      const result = await registry.call('delete_note', { id: 'n1' }, agent(), { signal: controller.signal });
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(result.error).toBe("Call to 'delete_note' refused: the approval gate did not answer before the caller aborted.");
      expect(deleteNote).not.toHaveBeenCalled();
      expect(approvalAudits(logger)).toHaveLength(1);
    });

    it("gives the gate the caller's signal so a waiting gate can stop", async () => {
      const controller = new AbortController();
      const { gate, requests } = recordingGate();
      const { registry } = setup({ approvalGate: gate });
      await registry.call('delete_note', { id: 'n1' }, agent(), { signal: controller.signal });
      expect(requests[0]?.signal).toBe(controller.signal);
    });
  });

  describe('constructor: approval options', () => {
    it.each([
      [{ approvalGate: {} as ApprovalGate }, 'approvalGate must have a check(request) function.'],
      [
        { approvalGates: { delete_note: { check: 1 } as unknown as ApprovalGate } },
        "approvalGates['delete_note'] must have a check(request) function, or be null.",
      ],
      [{ approvalStore: { open: () => true } as never }, 'approvalStore must have open, get and redeem functions.'],
      [{ approvalTtlSeconds: 0 }, 'approvalTtlSeconds must be a whole number of seconds >= 1, got 0.'],
      [{ approvalTtlSeconds: 1.5 }, 'approvalTtlSeconds must be a whole number of seconds >= 1, got 1.5.'],
    ] as [ToolRegistryOptions, string][])('throws INVALID_ARGUMENT for %j', (options, message) => {
      const build = () => new ToolRegistry(options);
      expect(build).toThrow(MilpaError);
      expect(build).toThrow(`ToolRegistry option ${message}`);
    });
  });

  describe('inspect: the approve step', () => {
    it('says when the gate is asked, conditionally, never, or not at all', () => {
      const { gate } = recordingGate();
      const { registry } = setup({ approvalGate: gate, approvalGates: { read_note: null } });
      const step = (name: string) => registry.inspect(name, agent())?.getStep('approve');
      expect(step('delete_note')).toMatchObject({ presence: 'active', blocking: true });
      expect(step('delete_note')?.source).toContain('APPROVAL_PENDING');
      expect(step('shell')).toMatchObject({ presence: 'conditional', blocking: true });
      expect(step('shell')?.source).toContain('depends on arguments');
      expect(step('read_note')).toMatchObject({ presence: 'skipped', blocking: false });
      const { registry: ungated } = setup();
      expect(ungated.inspect('delete_note', agent())?.getStep('approve')).toMatchObject({ presence: 'skipped' });
      const { registry: readOnlyGated } = setup({ approvalGate: gate });
      expect(readOnlyGated.inspect('read_note', agent())?.getStep('approve')).toMatchObject({ presence: 'dormant' });
    });

    it('describes each case exactly: blocking only where the gate is asked, never mutating, and why', () => {
      const { gate } = recordingGate();
      const { registry } = setup({ approvalGate: gate, approvalGates: { read_note: null } });
      const step = (on: ToolRegistry, name: string) => on.inspect(name, agent())?.getStep('approve');
      expect(step(registry, 'delete_note')).toMatchObject({ presence: 'active', blocking: true, mutates: false });
      expect(step(registry, 'delete_note')?.source).toMatch(/^the approval gate is asked for every call \(tool\.mutating\); it allows/);
      expect(step(registry, 'shell')).toMatchObject({ presence: 'conditional', blocking: true, mutates: false });
      expect(step(registry, 'read_note')).toMatchObject({
        presence: 'skipped',
        blocking: false,
        mutates: false,
        source: 'no approval gate is configured for this tool',
      });
      const { registry: readOnlyGated } = setup({ approvalGate: gate });
      expect(step(readOnlyGated, 'read_note')).toMatchObject({
        presence: 'dormant',
        blocking: false,
        mutates: false,
        source: 'an approval gate is configured, but mutating=false: the gate is never asked',
      });
    });

    it('places the approve step right after confirm, as calls run it', () => {
      const { registry } = setup({ approvalGate: recordingGate().gate });
      const kinds = registry.inspect('delete_note', agent())?.steps.map((step) => step.kind) ?? [];
      expect(kinds.indexOf('approve')).toBe(kinds.indexOf('confirm') + 1);
      expect(kinds.indexOf('approve')).toBeLessThan(kinds.indexOf('emit_executing'));
    });
  });
});
