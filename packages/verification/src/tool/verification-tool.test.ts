import {
  ToolContext,
  type ToolResult,
  VerificationRejectedEvent,
  VerificationGrantedEvent,
  VerificationRequestedEvent,
  unsupportedCaller,
  type AnyToolDefinition,
  type ToolRegistry,
  type VerificationStore,
} from '@milpa/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventOf, recordVerificationEvents } from '../../test/record-verification-events.js';
import { InMemoryVerificationStore } from '../store/in-memory-verification-store.js';
import { HumanVerifier } from '../verifier/human-verifier.js';
import { VerificationTool } from './verification-tool.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A minimal conforming registry that only keeps what is registered. */
class RecordingRegistry implements ToolRegistry {
  readonly tools = new Map<string, AnyToolDefinition>();
  register(definition: AnyToolDefinition): void {
    this.tools.set(definition.name, definition);
  }
  has(name: string): boolean {
    return this.tools.has(name);
  }
  get(name: string): AnyToolDefinition {
    const definition = this.tools.get(name);
    if (definition === undefined) throw new Error(`no tool ${name}`);
    return definition;
  }
}

function setup(options: { ttlMs?: number } = {}) {
  const { dispatcher, events } = recordVerificationEvents();
  const verifier = new HumanVerifier({ dispatcher, ...options });
  return { verifier, events, tool: new VerificationTool(verifier) };
}

async function requestId(tool: VerificationTool, args: Record<string, unknown> = {}, context?: ToolContext): Promise<string> {
  const opened = await tool.handleRequest({ subject: 'gate:report.publish', ...args }, context);
  expect(opened.success).toBe(true);
  return (opened.data as { request_id: string }).request_id;
}

function expectFailure(result: ToolResult, code: string, field: string, message: string): void {
  expect(result.toJSON()).toEqual({
    success: false,
    data: { field, message },
    message: null,
    error: message,
    meta: { code, type: 'error' },
  });
}

const worker = () => ToolContext.mcp('req-w', 'agent:worker', ['tasks:write']);
const reviewer = () => ToolContext.mcp('req-r', 'agent:reviewer', ['tasks:write', 'verification:resolve']);

describe('VerificationTool', () => {
  describe('names', () => {
    it('are request_verification and resolve_verification', () => {
      expect(VerificationTool.REQUEST_NAME).toBe('request_verification');
      expect(VerificationTool.RESOLVE_NAME).toBe('resolve_verification');
    });
  });

  describe('register', () => {
    it('registers both tools mutating, without registry confirmation, resolve with the resolve scopes', () => {
      const registry = new RecordingRegistry();
      new VerificationTool(new HumanVerifier(), { resolveScopes: ['verification:resolve'] }).register(registry);
      expect([...registry.tools.keys()]).toEqual(['request_verification', 'resolve_verification']);
      expect(registry.get('request_verification')).toMatchObject({ mutating: true, requiresConfirmation: false, scopes: [] });
      expect(registry.get('resolve_verification')).toMatchObject({
        mutating: true,
        requiresConfirmation: false,
        scopes: ['verification:resolve'],
      });
    });

    it('gives resolve_verification no scopes when none are configured', () => {
      const registry = new RecordingRegistry();
      new VerificationTool(new HumanVerifier()).register(registry);
      expect(registry.get('resolve_verification').scopes).toEqual([]);
    });

    it('uses the documented descriptions', () => {
      const registry = new RecordingRegistry();
      new VerificationTool(new HumanVerifier()).register(registry);
      expect(registry.get('request_verification').description).toBe(
        'Open a verification request for a subject. ' +
          'Returns a pending confirmation carrying the request_id needed to resolve it later via resolve_verification.',
      );
      expect(registry.get('resolve_verification').description).toBe(
        'Resolve a pending verification request by request_id with a grant|reject decision from a principal.',
      );
    });

    it('declares request_verification without decision or principal and requiring only subject', () => {
      const registry = new RecordingRegistry();
      new VerificationTool(new HumanVerifier()).register(registry);
      const schema = registry.get('request_verification').inputSchema as {
        required: string[];
        properties: Record<string, Record<string, unknown>>;
      };
      expect(Object.keys(schema.properties)).toEqual(['subject', 'policy', 'requested_by', 'request_id']);
      expect(schema.required).toEqual(['subject']);
      expect(schema.properties['subject']).toMatchObject({ type: 'string' });
      expect(schema.properties['policy']).toMatchObject({ type: 'string', enum: ['single', 'dual', 'quorum', 'auto'], default: 'single' });
      expect(schema.properties['requested_by']).toMatchObject({ type: 'string' });
      expect(schema.properties['request_id']).toMatchObject({ type: 'string' });
    });

    it('declares resolve_verification requiring request_id, decision and principal but not subject', () => {
      const registry = new RecordingRegistry();
      new VerificationTool(new HumanVerifier()).register(registry);
      const schema = registry.get('resolve_verification').inputSchema as {
        required: string[];
        properties: Record<string, Record<string, unknown>>;
      };
      expect(schema.required).toEqual(['request_id', 'decision', 'principal']);
      expect(Object.keys(schema.properties)).toEqual(['request_id', 'decision', 'principal', 'subject', 'reason', 'changes']);
      expect(schema.properties['decision']).toMatchObject({ type: 'string', enum: ['grant', 'reject'] });
      const { changes, ...texts } = schema.properties;
      for (const property of Object.values(texts)) expect(property['type']).toBe('string');
      expect(changes).toMatchObject({ type: 'object' });
    });

    it('passes the invocation context to the handlers so the caller check applies', async () => {
      const registry = new RecordingRegistry();
      new VerificationTool(new HumanVerifier()).register(registry);
      const invocation = (context: ToolContext) => ({ context, signal: new AbortController().signal, caller: unsupportedCaller });
      const opened = (await registry.get('request_verification').handler({ subject: 'gate:x' }, invocation(worker()))) as ToolResult;
      const id = (opened.data as { request_id: string }).request_id;
      const resolved = (await registry
        .get('resolve_verification')
        .handler({ request_id: id, decision: 'grant', principal: 'agent:reviewer' }, invocation(worker()))) as ToolResult;
      expect(resolved.getCode()).toBe('FORBIDDEN');
    });
  });

  describe('handleRequest', () => {
    it('returns a confirmation with subject, policy single and a UUID v4 request_id and no confirm_token', async () => {
      const { tool } = setup();
      const result = await tool.handleRequest({ subject: 'gate:report.publish' }, ToolContext.cli());
      expect(result.success).toBe(true);
      expect(result.requiresConfirmation()).toBe(true);
      expect(result.data).toEqual({ subject: 'gate:report.publish', policy: 'single', request_id: expect.stringMatching(UUID_V4) });
      expect(result.data).not.toHaveProperty('confirm_token');
      expect(result.getConfirmToken()).toBeNull();
    });

    it('returns the verification-required message and confirmation meta', async () => {
      const { tool } = setup();
      const result = await tool.handleRequest({ subject: 'gate:report.publish', policy: 'dual', request_id: 'req-7' });
      expect(result.message).toBe(
        "Verification required for 'gate:report.publish' (policy: dual). " +
          'Resolve by calling resolve_verification with decision=grant|reject, a principal, and request_id=req-7.',
      );
      expect(result.meta).toEqual({
        type: 'confirmation',
        requires_confirmation: true,
        action: 'verify',
        target: 'gate:report.publish',
        target_id: 'gate:report.publish',
      });
    });

    it('uses a caller-supplied request_id verbatim and passes requested_by through', async () => {
      const { tool, verifier, events } = setup();
      const result = await tool.handleRequest({ subject: 'gate:x', request_id: 'corr-42', requested_by: 'agent:planner' });
      expect((result.data as { request_id: string }).request_id).toBe('corr-42');
      const event = eventOf(events[0], VerificationRequestedEvent);
      expect(event.getRequestId()).toBe('corr-42');
      expect(event.getRequest().requestedBy).toBe('agent:planner');
      expect((await verifier.store.get('corr-42'))?.request.subject).toBe('gate:x');
    });

    it('generates a fresh id when request_id is omitted or empty', async () => {
      const { tool } = setup();
      const first = await requestId(tool);
      const second = await requestId(tool, { request_id: '' });
      expect(first).toMatch(UUID_V4);
      expect(second).toMatch(UUID_V4);
      expect(first).not.toBe(second);
    });

    it('dispatches verification.requested when the verifier has a dispatcher', async () => {
      const { tool, events } = setup();
      const id = await requestId(tool);
      expect(events.map((event) => event.name)).toEqual(['verification.requested']);
      expect(eventOf(events[0], VerificationRequestedEvent).getRequest()).toMatchObject({
        subject: 'gate:report.publish',
        policy: 'single',
        id,
      });
    });

    it('trims the subject', async () => {
      const { tool } = setup();
      const result = await tool.handleRequest({ subject: '  gate:x  ' });
      expect(result.data).toMatchObject({ subject: 'gate:x' });
    });

    it.each([[{ subject: '   ' }], [{}], [{ subject: null }]])('returns VALIDATION_ERROR for subject when args are %j', async (args) => {
      const { tool, events } = setup();
      expectFailure(await tool.handleRequest(args), 'VALIDATION_ERROR', 'subject', 'subject is required');
      expect(events).toEqual([]);
    });

    it('returns VALIDATION_ERROR instead of falling back to single when the policy is unknown', async () => {
      const { tool, events } = setup();
      expectFailure(
        await tool.handleRequest({ subject: 'gate:x', policy: 'bogus' }),
        'VALIDATION_ERROR',
        'policy',
        'policy: Value must be one of: single, dual, quorum, auto',
      );
      expect(events).toEqual([]);
    });

    it('returns VALIDATION_ERROR when an argument is not a string', async () => {
      const { tool } = setup();
      expectFailure(await tool.handleRequest({ subject: 42 }), 'VALIDATION_ERROR', 'subject', 'subject must be a string');
      expectFailure(
        await tool.handleRequest({ subject: 'x', requested_by: 7 }),
        'VALIDATION_ERROR',
        'requested_by',
        'requested_by must be a string',
      );
      expectFailure(
        await tool.handleRequest({ subject: 'x', request_id: ['a'] }),
        'VALIDATION_ERROR',
        'request_id',
        'request_id must be a string',
      );
    });

    it('returns VALIDATION_ERROR when request_id is blank or padded', async () => {
      const { tool } = setup();
      const message = 'request_id must not be blank or padded with whitespace';
      expectFailure(await tool.handleRequest({ subject: 'x', request_id: '   ' }), 'VALIDATION_ERROR', 'request_id', message);
      expectFailure(await tool.handleRequest({ subject: 'x', request_id: ' r-1' }), 'VALIDATION_ERROR', 'request_id', message);
    });

    it('returns CONFLICT and leaves the open request alone when the request_id is reused', async () => {
      const { tool, verifier, events } = setup();
      await tool.handleRequest({ subject: 'gate:first', request_id: 'r-1' });
      expectFailure(
        await tool.handleRequest({ subject: 'gate:second', request_id: 'r-1' }),
        'CONFLICT',
        'request_id',
        "Verification request 'r-1' already exists.",
      );
      expect((await verifier.store.get('r-1'))?.request.subject).toBe('gate:first');
      expect(events).toHaveLength(1);
    });

    it('makes the calling principal the requester when requested_by is omitted', async () => {
      const { tool, verifier } = setup();
      const id = await requestId(tool, {}, worker());
      expect((await verifier.store.get(id))?.request.requestedBy).toBe('agent:worker');
    });

    it('returns FORBIDDEN when requested_by names someone other than the caller', async () => {
      const { tool, events } = setup();
      expectFailure(
        await tool.handleRequest({ subject: 'gate:x', requested_by: 'agent:reviewer' }, worker()),
        'FORBIDDEN',
        'requested_by',
        "requested_by 'agent:reviewer' is not the calling principal 'agent:worker'; " +
          "only a context holding '*' may open a request on behalf of another principal.",
      );
      expect(events).toEqual([]);
    });

    it('lets a context holding * open a request on behalf of another principal', async () => {
      const { tool, verifier } = setup();
      const id = await requestId(tool, { requested_by: 'agent:worker' }, ToolContext.cli());
      expect((await verifier.store.get(id))?.request.requestedBy).toBe('agent:worker');
    });

    it('passes at once and returns a success with status passed when the policy is auto', async () => {
      const { tool, events } = setup();
      const result = await tool.handleRequest({ subject: 'gate:x', policy: 'auto', request_id: 'r-auto' });
      expect(result.toJSON()).toEqual({
        success: true,
        data: { subject: 'gate:x', policy: 'auto', request_id: 'r-auto', status: 'passed' },
        message: "Verification for 'gate:x' passed automatically (policy: auto).",
        error: null,
        meta: { verification_status: 'passed' },
      });
      expect(result.requiresConfirmation()).toBe(false);
      expect(events.map((event) => event.name)).toEqual(['verification.requested', 'verification.granted']);
    });
  });

  describe('handleResolve', () => {
    it("passes a grant's changes to the verifier and returns them in the verdict", async () => {
      const { tool, verifier } = setup();
      const id = await requestId(tool);
      const result = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer', changes: { amount: 90 } });
      expect(result.data).toMatchObject({ status: 'passed', metadata: { changes: { amount: 90 } } });
      expect((await verifier.store.get(id))?.approvals[0]?.changes).toEqual({ amount: 90 });
    });

    it('refuses changes with a reject, and changes that are not an object, as VALIDATION_ERROR on changes', async () => {
      const { tool, verifier } = setup();
      const id = await requestId(tool);
      expectFailure(
        await tool.handleResolve({ request_id: id, decision: 'reject', principal: 'agent:reviewer', changes: { amount: 1 } }),
        'VALIDATION_ERROR',
        'changes',
        'changes can only come with decision=grant',
      );
      expectFailure(
        await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer', changes: [1] }),
        'VALIDATION_ERROR',
        'changes',
        'changes must be an object of field name → new value',
      );
      const invalid = await tool.handleResolve({
        request_id: id,
        decision: 'grant',
        principal: 'agent:reviewer',
        changes: { at: new Date(0) },
      });
      expect(invalid.getCode()).toBe('VALIDATION_ERROR');
      expect(invalid.data).toMatchObject({ field: 'changes' });
      expect((await verifier.store.get(id))?.result).toBeNull();
    });

    it('returns the passed verdict as data with verification_status meta when granted', async () => {
      const { tool } = setup();
      const id = await requestId(tool);
      const result = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer' });
      expect(result.toJSON()).toEqual({
        success: true,
        data: { status: 'passed', reason: null, verifier: 'human_verifier', principal: 'agent:reviewer', missing: [], metadata: {} },
        message: `Verification granted for '${id}'.`,
        error: null,
        meta: { verification_status: 'passed' },
      });
      expect(result.requiresConfirmation()).toBe(false);
    });

    it('names the request_id in the message and dispatches the stored request when rejecting without a subject', async () => {
      const { tool, events } = setup();
      const id = await requestId(tool, { policy: 'dual' });
      const result = await tool.handleResolve({
        request_id: id,
        decision: 'reject',
        principal: 'agent:reviewer',
        reason: 'insufficient evidence',
      });
      expect((result.data as { status: string }).status).toBe('failed');
      expect((result.data as { reason: string }).reason).toBe('insufficient evidence');
      expect(result.message).toBe(`Verification rejected for '${id}'.`);
      expect(events[1]!.name).toBe('verification.rejected');
      const event = eventOf(events[1], VerificationRejectedEvent);
      expect(event.getRequestId()).toBe(id);
      // The stored request: its real subject and policy, never a fabricated one.
      expect(event.getRequest().subject).toBe('gate:report.publish');
      expect(event.getRequest().policy).toBe('dual');
      expect(event.getResult().reason).toBe('insufficient evidence');
    });

    it('names the subject in the message and the granted event when a subject is given', async () => {
      const { tool, events } = setup();
      const id = await requestId(tool);
      const result = await tool.handleResolve({
        request_id: id,
        decision: 'grant',
        principal: 'agent:reviewer',
        subject: 'gate:report.publish',
      });
      expect(result.message).toBe("Verification granted for 'gate:report.publish'.");
      const event = eventOf(events[1], VerificationGrantedEvent);
      expect(event.getRequest().subject).toBe('gate:report.publish');
      expect(event.getRequestId()).toBe(id);
    });

    it("uses 'rejected' as the reason when a reject has none", async () => {
      const { tool } = setup();
      const id = await requestId(tool);
      const result = await tool.handleResolve({ request_id: id, decision: 'reject', principal: 'agent:reviewer' });
      expect((result.data as { reason: string }).reason).toBe('rejected');
    });

    it('puts a grant reason in metadata and keeps reason null', async () => {
      const { tool } = setup();
      const id = await requestId(tool);
      const result = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer', reason: 'checked' });
      expect(result.data).toMatchObject({ reason: null, metadata: { reason: 'checked' } });
    });

    it('checks request_id, then decision, then principal', async () => {
      const { tool } = setup();
      expectFailure(
        await tool.handleResolve({ request_id: '  ', decision: 'nope', principal: '' }),
        'VALIDATION_ERROR',
        'request_id',
        'request_id is required',
      );
      expectFailure(
        await tool.handleResolve({ request_id: 'r-1', decision: 'nope', principal: '' }),
        'VALIDATION_ERROR',
        'decision',
        'decision must be grant|reject',
      );
      expectFailure(
        await tool.handleResolve({ request_id: 'r-1', principal: 'a' }),
        'VALIDATION_ERROR',
        'decision',
        'decision must be grant|reject',
      );
      expectFailure(
        await tool.handleResolve({ request_id: 'r-1', decision: 'grant', principal: '   ' }),
        'VALIDATION_ERROR',
        'principal',
        'principal is required',
      );
      expectFailure(
        await tool.handleResolve({ request_id: 'r-1', decision: 'grant', principal: 5 }),
        'VALIDATION_ERROR',
        'principal',
        'principal must be a string',
      );
    });

    it('accepts a decision surrounded by whitespace', async () => {
      const { tool } = setup();
      const id = await requestId(tool);
      const result = await tool.handleResolve({ request_id: ` ${id} `, decision: ' grant ', principal: ' agent:reviewer ' });
      expect(result.data).toMatchObject({ status: 'passed', principal: 'agent:reviewer' });
    });

    it('attributes the verdict to the principal argument when called without a context', async () => {
      const { tool } = setup();
      const id = await requestId(tool);
      const result = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:claude' });
      expect(result.data).toMatchObject({ principal: 'agent:claude' });
    });

    it('returns FORBIDDEN and changes nothing when the principal is not the caller', async () => {
      const { tool, verifier, events } = setup();
      const id = await requestId(tool, {}, worker());
      expectFailure(
        await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer' }, worker()),
        'FORBIDDEN',
        'principal',
        "principal 'agent:reviewer' is not the calling principal 'agent:worker'; " +
          "only a context holding '*' may resolve on behalf of another principal.",
      );
      expect((await verifier.store.get(id))?.result).toBeNull();
      expect(events).toHaveLength(1);
    });

    it('returns FORBIDDEN when an anonymous caller names a principal', async () => {
      const { tool } = setup();
      const id = await requestId(tool);
      const anonymous = new ToolContext({ channel: 'web', principal: null, scopes: ['verification:resolve'] });
      const result = await tool.handleResolve({ request_id: id, decision: 'reject', principal: 'user:1' }, anonymous);
      expect(result.getCode()).toBe('FORBIDDEN');
      expect(result.error).toContain("is not the calling principal '(none)'");
    });

    it('lets a context holding * resolve on behalf of another principal', async () => {
      const { tool } = setup();
      const id = await requestId(tool, {}, worker());
      const result = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer' }, ToolContext.cli());
      expect(result.data).toMatchObject({ status: 'passed', principal: 'agent:reviewer' });
    });

    it('lets the reviewer resolve as itself', async () => {
      const { tool } = setup();
      const id = await requestId(tool, {}, worker());
      const result = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer' }, reviewer());
      expect(result.data).toMatchObject({ status: 'passed' });
    });

    it('returns FORBIDDEN when the requester grants its own request as itself', async () => {
      const { tool, verifier } = setup();
      const id = await requestId(tool, {}, worker());
      expectFailure(
        await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:worker' }, worker()),
        'FORBIDDEN',
        'principal',
        `Principal 'agent:worker' opened verification request '${id}' and cannot grant it.`,
      );
      expect((await verifier.store.get(id))?.result).toBeNull();
    });

    it('returns NOT_FOUND and dispatches nothing when the request_id is unknown', async () => {
      const { tool, events } = setup();
      expectFailure(
        await tool.handleResolve({ request_id: 'r-1', decision: 'grant', principal: 'agent:reviewer' }),
        'NOT_FOUND',
        'request_id',
        "Verification request 'r-1' does not exist.",
      );
      expect(events).toEqual([]);
    });

    it('returns CONFLICT when the request is already resolved, including grant then reject', async () => {
      const { tool, events } = setup();
      const id = await requestId(tool);
      await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer' });
      const again = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:other' });
      const flip = await tool.handleResolve({ request_id: id, decision: 'reject', principal: 'agent:other' });
      expectFailure(again, 'CONFLICT', 'request_id', `Verification request '${id}' is already resolved (passed).`);
      expect(flip.getCode()).toBe('CONFLICT');
      expect(events.map((event) => event.name)).toEqual(['verification.requested', 'verification.granted']);
    });

    it('returns CONFLICT when the subject differs from the opened one', async () => {
      const { tool } = setup();
      const id = await requestId(tool);
      const result = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer', subject: 'gate:other' });
      expectFailure(result, 'CONFLICT', 'subject', `Verification request '${id}' is for subject 'gate:report.publish', not 'gate:other'.`);
    });

    describe('with the dual policy', () => {
      it('stays pending after one grant and passes on a grant by a second principal', async () => {
        const { tool, events } = setup();
        const id = await requestId(tool, { policy: 'dual' });
        const first = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'user:ana' });
        expect(first.toJSON()).toEqual({
          success: true,
          data: {
            status: 'pending',
            reason: null,
            verifier: 'human_verifier',
            principal: null,
            missing: [],
            metadata: { approvals: 1, required: 2 },
          },
          message: `Verification for '${id}' has 1 of 2 required approvals; it stays pending.`,
          error: null,
          meta: { verification_status: 'pending' },
        });
        const second = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'user:luis' });
        expect(second.data).toMatchObject({ status: 'passed', principal: 'user:luis' });
        expect(events.map((event) => event.name)).toEqual([
          'verification.requested',
          'verification.approval_recorded',
          'verification.granted',
        ]);
      });

      it('returns CONFLICT when the same principal grants twice', async () => {
        const { tool, verifier } = setup();
        const id = await requestId(tool, { policy: 'dual' });
        await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'user:ana' });
        const again = await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'user:ana' });
        expect(again.getCode()).toBe('CONFLICT');
        expect((again.data as { field: string }).field).toBe('principal');
        expect((await verifier.store.get(id))?.result).toBeNull();
      });
    });

    describe('with an expiry', () => {
      beforeEach(() => {
        vi.useFakeTimers({ now: new Date('2026-08-15T14:00:00Z') });
      });

      afterEach(() => {
        vi.useRealTimers();
      });

      it('returns CONFLICT once the request has expired', async () => {
        const { tool } = setup({ ttlMs: 300_000 });
        const id = await requestId(tool);
        vi.advanceTimersByTime(300_001);
        expectFailure(
          await tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer' }),
          'CONFLICT',
          'request_id',
          `Verification request '${id}' expired at 2026-08-15T14:05:00.000Z; open a new request.`,
        );
      });
    });

    it('lets a store failure propagate instead of reporting it as a refusal', async () => {
      const inner = new InMemoryVerificationStore();
      const store: VerificationStore = {
        open: (record) => inner.open(record),
        get: (id) => inner.get(id),
        decide: () => {
          throw new Error('store unavailable');
        },
      };
      const tool = new VerificationTool(new HumanVerifier({ store }));
      const id = await requestId(tool);
      await expect(tool.handleResolve({ request_id: id, decision: 'grant', principal: 'agent:reviewer' })).rejects.toThrow(
        'store unavailable',
      );
    });
  });
});
