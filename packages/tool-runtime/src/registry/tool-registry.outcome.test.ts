import { EventDispatcher } from '@milpa/events';
import {
  ApprovalVerdict,
  type InterceptionSlot,
  InvocationDecision,
  ToolContext,
  ToolResult,
  Type,
  defineTool,
  type ApprovalGate,
  type RateLimiter,
} from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryRateLimiter } from '../rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const reader = () => ToolContext.web('user:1', ['notes:read']);

function setup(options: ToolRegistryOptions = {}) {
  const registry = new ToolRegistry(options);
  registry.register(
    defineTool({
      name: 'read_note',
      description: 'Read a note',
      input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
      scopes: ['notes:read'],
      handler: ({ id }) => ({ id }),
    }),
  );
  return registry;
}

const holdEverything: ApprovalGate = {
  check: () => ApprovalVerdict.suspend({ message: 'Someone must approve.' }),
  getResolution: () => ({ status: 'pending' }),
};

afterEach(() => {
  vi.useRealTimers();
});

describe('ToolRegistry', () => {
  describe('call', () => {
    it('carries an executed outcome when the handler returns', async () => {
      const result = await setup().call('read_note', { id: 'n1' }, reader());
      expect(result.outcome).toEqual({ kind: 'executed', name: 'executed', servedByListener: false });
    });

    it('carries an executed outcome when the handler returns its own ToolResult', async () => {
      const registry = new ToolRegistry();
      registry.register(defineTool({ name: 'own', description: 'd', handler: () => ToolResult.failure('NOT_FOUND', 'No such note') }));
      const result = await registry.call('own', {}, reader());
      expect(result.outcome).toEqual({ kind: 'executed', name: 'executed', servedByListener: false });
    });

    it('carries an executed outcome served by a listener when a tool.executing listener answers with a value', async () => {
      const dispatcher = new EventDispatcher();
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        (payload['slot'] as InterceptionSlot).shortCircuit({ id: 'cached' });
      });
      const result = await setup({ dispatcher }).call('read_note', { id: 'n1' }, reader());
      expect(result.outcome).toEqual({ kind: 'executed', name: 'executed', servedByListener: true });
    });

    it('keeps the executed outcome when the result cap cuts the data', async () => {
      const registry = new ToolRegistry({ maxResultTokens: 10 });
      registry.register(defineTool({ name: 'long', description: 'd', handler: () => 'x'.repeat(500) }));
      const result = await registry.call('long', {}, reader());
      expect(result.meta['truncated']).toBe(true);
      expect(result.outcome?.kind).toBe('executed');
    });

    it('carries a failed outcome when the handler throws', async () => {
      const registry = new ToolRegistry({ exposeErrorMessages: true });
      registry.register(
        defineTool({
          name: 'broken',
          description: 'd',
          handler: () => {
            throw new Error('disk full');
          },
        }),
      );
      const result = await registry.call('broken', {}, reader());
      expect(result.outcome).toEqual({ kind: 'failed', name: 'failed', code: 'INTERNAL_ERROR', reason: 'disk full' });
    });

    it('carries a failed outcome named timeout when a hard timeout passes', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      const registry = new ToolRegistry();
      registry.register(
        defineTool({
          name: 'slow',
          description: 'd',
          timeoutMs: 50,
          hardTimeout: true,
          handler: () => new Promise(() => undefined),
        }),
      );
      const pending = registry.call('slow', {}, reader());
      await vi.advanceTimersByTimeAsync(60);
      expect((await pending).outcome).toEqual({
        kind: 'failed',
        name: 'timeout',
        code: 'TIMEOUT',
        reason: "Tool 'slow' timed out after 50 ms",
      });
    });

    it('carries a refused outcome named not_found when no tool has the name', async () => {
      const result = await setup().call('nope', {}, reader());
      expect(result.outcome).toEqual({ kind: 'refused', name: 'not_found', code: 'TOOL_NOT_FOUND', reason: 'Tool not found: nope' });
    });

    it('carries a refused outcome named validation_failed when the arguments are invalid', async () => {
      const result = await setup().call('read_note', { id: 7 }, reader());
      expect(result.outcome).toEqual({ kind: 'refused', name: 'validation_failed', code: 'VALIDATION_ERROR', reason: result.error });
    });

    it('carries a refused outcome named validation_failed when no context is given', async () => {
      const result = await setup().call('read_note', { id: 'n1' });
      expect(result.outcome).toMatchObject({ kind: 'refused', name: 'validation_failed', code: 'VALIDATION_ERROR' });
    });

    it('carries a refused outcome named auth_denied when the caller lacks the scope', async () => {
      const result = await setup().call('read_note', { id: 'n1' }, ToolContext.web('user:2', ['posts:read']));
      expect(result.outcome).toEqual({ kind: 'refused', name: 'auth_denied', code: 'FORBIDDEN', reason: result.error });
    });

    it('carries a refused outcome named invocation_denied when a rule denies', async () => {
      const registry = setup({ rules: [{ identifier: 'no_reads', evaluate: () => InvocationDecision.deny('closed') }] });
      const result = await registry.call('read_note', { id: 'n1' }, reader());
      expect(result.outcome).toEqual({ kind: 'refused', name: 'invocation_denied', code: 'FORBIDDEN', reason: result.error });
    });

    it('carries a refused outcome named rate_limited when the budget is spent', async () => {
      const registry = setup({ rateLimiter: new InMemoryRateLimiter(), rateLimit: { maxTokens: 1 } });
      await registry.call('read_note', { id: 'n1' }, reader());
      const result = await registry.call('read_note', { id: 'n1' }, reader());
      expect(result.outcome).toMatchObject({ kind: 'refused', name: 'rate_limited', code: 'RATE_LIMITED' });
    });

    it('carries a refused outcome named internal_error when a collaborator fails', async () => {
      const limiter: RateLimiter = {
        consume: () => {
          throw new Error('redis down');
        },
      } as unknown as RateLimiter;
      const result = await setup({ rateLimiter: limiter }).call('read_note', { id: 'n1' }, reader());
      expect(result.outcome).toMatchObject({ kind: 'refused', name: 'internal_error', code: 'STORE_UNAVAILABLE' });
    });

    it('carries a refused outcome named refused when a host stage refuses', async () => {
      const registry = setup({
        stages: [{ before: 'rate_limit', stage: { name: 'tenant', check: () => ToolResult.failure('FORBIDDEN', 'Not your site') } }],
      });
      const result = await registry.call('read_note', { id: 'n1' }, reader());
      expect(result.outcome).toEqual({ kind: 'refused', name: 'refused', code: 'FORBIDDEN', reason: 'Not your site' });
    });

    it('carries a refused outcome named refused when an idempotency key was used with other arguments', async () => {
      const registry = setup();
      await registry.call('read_note', { id: 'n1' }, reader(), { idempotencyKey: 'k-1' });
      const result = await registry.call('read_note', { id: 'n2' }, reader(), { idempotencyKey: 'k-1' });
      expect(result.outcome).toMatchObject({ kind: 'refused', name: 'refused', code: 'CONFLICT' });
    });

    it('carries a replayed outcome when an idempotency key is used again', async () => {
      const registry = setup();
      await registry.call('read_note', { id: 'n1' }, reader(), { idempotencyKey: 'k-1' });
      const result = await registry.call('read_note', { id: 'n1' }, reader(), { idempotencyKey: 'k-1' });
      expect(result.outcome).toEqual({ kind: 'replayed', name: 'replayed' });
    });

    it('carries a refused outcome named vetoed when a tool.executing listener vetoes', async () => {
      const dispatcher = new EventDispatcher();
      dispatcher.subscribe('tool.executing', (_name, payload) => {
        (payload['slot'] as InterceptionSlot).stop();
      });
      const result = await setup({ dispatcher }).call('read_note', { id: 'n1' }, reader());
      expect(result.outcome).toEqual({
        kind: 'refused',
        name: 'vetoed',
        code: 'FORBIDDEN',
        reason: 'Tool execution vetoed by an event listener',
      });
    });

    it('carries a refused outcome named aborted when the caller aborted before execution', async () => {
      const controller = new AbortController();
      controller.abort();
      const result = await setup().call('read_note', { id: 'n1' }, reader(), { signal: controller.signal });
      expect(result.outcome).toMatchObject({ kind: 'refused', name: 'aborted', code: 'TIMEOUT' });
    });

    it('carries a planned outcome when the context is in plan mode', async () => {
      const result = await setup().call('read_note', { id: 'n1' }, reader().with({ mode: 'plan' }));
      expect(result.outcome).toEqual({ kind: 'planned', name: 'plan' });
    });

    it('carries a confirmation_required outcome with the token, summary and expiry when the tool asks for confirmation', async () => {
      const registry = new ToolRegistry();
      registry.register(defineTool({ name: 'wipe', description: 'd', requiresConfirmation: true, handler: () => 'wiped' }));
      const result = await registry.call('wipe', {}, reader());
      const data = result.data as { confirm_token: string; action_summary: string; expires_at: string };
      expect(result.outcome).toEqual({
        kind: 'confirmation_required',
        name: 'confirmation_requested',
        token: data.confirm_token,
        summary: data.action_summary,
        expiresAt: data.expires_at,
      });
      expect(result.getConfirmationRequest()?.token).toBe(data.confirm_token);
    });

    it('carries an approval_pending outcome with the approval id and expiry when the gate holds the call', async () => {
      const registry = new ToolRegistry({ approvalGate: holdEverything });
      registry.register(defineTool({ name: 'delete_note', description: 'd', mutating: true, handler: () => 'deleted' }));
      const result = await registry.call('delete_note', {}, reader());
      const data = result.data as { approval_id: string; expires_at: string };
      expect(result.outcome).toEqual({
        kind: 'approval_pending',
        name: 'approval_pending',
        approvalId: data.approval_id,
        expiresAt: data.expires_at,
      });
      expect(result.getPendingApproval()?.approvalId).toBe(data.approval_id);
    });

    it('carries a refused outcome named approval_denied when the gate denies', async () => {
      const gate: ApprovalGate = { check: () => ApprovalVerdict.deny('not today') };
      const registry = new ToolRegistry({ approvalGate: gate });
      registry.register(defineTool({ name: 'delete_note', description: 'd', mutating: true, handler: () => 'deleted' }));
      const result = await registry.call('delete_note', {}, reader());
      expect(result.outcome).toEqual({ kind: 'refused', name: 'approval_denied', code: 'APPROVAL_DENIED', reason: result.error });
      expect(result.getRefusal()?.name).toBe('approval_denied');
    });
  });

  describe('call with control values', () => {
    function confirming() {
      const registry = new ToolRegistry();
      const handler = vi.fn(() => 'wiped');
      registry.register(
        defineTool({
          name: 'wipe',
          description: 'd',
          input: Type.Object({ id: Type.String() }, { additionalProperties: false }),
          requiresConfirmation: true,
          handler,
        }),
      );
      return { registry, handler };
    }

    it('carries an executed outcome when the confirmToken option redeems the token', async () => {
      const { registry, handler } = confirming();
      const asked = await registry.call('wipe', { id: 'n1' }, reader());
      const token = asked.getConfirmationRequest()?.token;
      const result = await registry.call('wipe', { id: 'n1' }, reader(), { confirmToken: token as string });
      expect(result.outcome).toEqual({ kind: 'executed', name: 'executed', servedByListener: false });
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('carries a refused outcome named invalid_token when the confirmToken option matches no token', async () => {
      const result = await confirming().registry.call('wipe', { id: 'n1' }, reader(), { confirmToken: 'f'.repeat(32) });
      expect(result.outcome).toEqual({
        kind: 'refused',
        name: 'invalid_token',
        code: 'VALIDATION_ERROR',
        reason: 'Invalid or expired confirmation token',
      });
    });

    it('validates confirm_token among the arguments like any other property when a strict schema does not declare it', async () => {
      const { registry, handler } = confirming();
      const asked = await registry.call('wipe', { id: 'n1' }, reader());
      const result = await registry.call('wipe', { id: 'n1', confirm_token: asked.getConfirmToken() }, reader());
      expect(result.outcome).toMatchObject({ kind: 'refused', name: 'validation_failed', reason: 'Unknown property: confirm_token' });
      expect(handler).not.toHaveBeenCalled();
    });

    it('carries a refused outcome named approval_invalid when the approvalId option holds no call', async () => {
      const registry = new ToolRegistry({ approvalGate: holdEverything });
      registry.register(defineTool({ name: 'delete_note', description: 'd', mutating: true, handler: () => 'deleted' }));
      const result = await registry.call('delete_note', {}, reader(), { approvalId: 'f'.repeat(32) });
      expect(result.outcome).toMatchObject({ kind: 'refused', name: 'approval_invalid', code: 'APPROVAL_INVALID' });
    });

    it('carries an approval_pending outcome again when the approvalId option names a call not yet approved', async () => {
      const registry = new ToolRegistry({ approvalGate: holdEverything });
      registry.register(defineTool({ name: 'delete_note', description: 'd', mutating: true, handler: () => 'deleted' }));
      const context = reader().with({ runId: 'run_1' });
      const held = await registry.call('delete_note', {}, context);
      const approvalId = held.getPendingApproval()?.approvalId as string;
      const again = await registry.call('delete_note', {}, context, { approvalId });
      expect(again.outcome).toMatchObject({ kind: 'approval_pending', approvalId });
    });
  });

  describe('resume', () => {
    it('carries a refused outcome named approval_invalid when no call is held under the id', async () => {
      const registry = new ToolRegistry({ approvalGate: holdEverything });
      const result = await registry.resume('0'.repeat(32), reader());
      expect(result.outcome).toEqual({
        kind: 'refused',
        name: 'approval_invalid',
        code: 'APPROVAL_INVALID',
        reason: 'Unknown approval_id: no call is held under it.',
      });
    });
  });
});
