import { ToolContext, type ToolResult } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { describe, expect, it, vi } from 'vitest';
import { recordVerificationEvents } from '../../test/record-verification-events.js';
import { HumanVerifier } from '../verifier/human-verifier.js';
import { VerificationTool } from './verification-tool.js';

/** A real registry with both tools registered, a recording dispatcher on the verifier and spies on the handlers. */
function setup(resolveScopes: readonly string[] = []) {
  const { dispatcher, events } = recordVerificationEvents();
  const tool = new VerificationTool(new HumanVerifier({ dispatcher }), { resolveScopes });
  const requestSpy = vi.spyOn(tool, 'handleRequest');
  const resolveSpy = vi.spyOn(tool, 'handleResolve');
  const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
  tool.register(registry);
  return { registry, events, requestSpy, resolveSpy };
}

function requestIdOf(result: ToolResult): string {
  return (result.data as { request_id: string }).request_id;
}

describe('VerificationTool through a ToolRegistry', () => {
  describe('request → resolve', () => {
    it('takes exactly two calls and shows no confirm_token anywhere', async () => {
      const { registry, events, requestSpy, resolveSpy } = setup();
      const context = ToolContext.cli();
      const request = await registry.call('request_verification', { subject: 'gate:report.publish' }, context);
      expect(request.success).toBe(true);
      expect(request.data).toEqual({ subject: 'gate:report.publish', policy: 'single', request_id: expect.any(String) });
      expect(request.getConfirmToken()).toBeNull();
      expect(request.meta).toMatchObject({
        type: 'confirmation',
        requires_confirmation: true,
        action: 'verify',
        tool: 'request_verification',
      });

      const resolved = await registry.call(
        'resolve_verification',
        { request_id: requestIdOf(request), decision: 'grant', principal: 'agent:claude' },
        context,
      );
      expect(resolved.data).toEqual({
        status: 'passed',
        reason: null,
        verifier: 'human_verifier',
        principal: 'agent:claude',
        missing: [],
        metadata: {},
      });
      expect(resolved.meta).toMatchObject({ verification_status: 'passed', tool: 'resolve_verification' });
      expect(resolved.requiresConfirmation()).toBe(false);

      expect(JSON.stringify([request, resolved])).not.toContain('confirm_token');
      expect(requestSpy).toHaveBeenCalledTimes(1);
      expect(resolveSpy).toHaveBeenCalledTimes(1);
      expect(events.map((event) => event.name)).toEqual(['verification.requested', 'verification.granted']);
    });

    it.each([
      ['cli', () => ToolContext.cli()],
      ['mcp', () => ToolContext.mcp('req-1', 'agent:worker', [])],
      ['web', () => ToolContext.web('user:1', [])],
    ])('runs the handler on the first call without a registry token on %s', async (_channel, context) => {
      const { registry, requestSpy } = setup();
      const request = await registry.call('request_verification', { subject: 'gate:x' }, context());
      expect(request.getConfirmToken()).toBeNull();
      expect(requestIdOf(request)).toEqual(expect.any(String));
      expect(requestSpy).toHaveBeenCalledTimes(1);
    });
  });

  describe('the policy dividend', () => {
    const worker = ToolContext.mcp('req-w', 'agent:worker', ['tasks:write']);
    const reviewer = ToolContext.mcp('req-r', 'agent:reviewer', ['tasks:write', 'verification:resolve']);

    it('lets a worker request but not resolve, and lets a reviewer resolve', async () => {
      const { registry, resolveSpy } = setup(['verification:resolve']);
      const request = await registry.call('request_verification', { subject: 'gate:report.publish' }, worker);
      expect(request.success).toBe(true);
      const requestId = requestIdOf(request);

      const denied = await registry.call(
        'resolve_verification',
        { request_id: requestId, decision: 'grant', principal: 'agent:worker' },
        worker,
      );
      expect(denied.success).toBe(false);
      expect(denied.getCode()).toBe('FORBIDDEN');
      expect(denied.error).toBe(
        "Missing required scope for tool 'resolve_verification'. Need one of: verification:resolve — context has: tasks:write.",
      );
      expect(resolveSpy).not.toHaveBeenCalled();

      const granted = await registry.call(
        'resolve_verification',
        { request_id: requestId, decision: 'grant', principal: 'agent:reviewer' },
        reviewer,
      );
      expect(granted.success).toBe(true);
      expect(granted.data).toMatchObject({ status: 'passed', principal: 'agent:reviewer' });
    });

    it('refuses a reviewer resolving in another principal name with FORBIDDEN', async () => {
      const { registry } = setup(['verification:resolve']);
      const requestId = requestIdOf(await registry.call('request_verification', { subject: 'gate:x' }, worker));
      const result = await registry.call(
        'resolve_verification',
        { request_id: requestId, decision: 'grant', principal: 'agent:boss' },
        reviewer,
      );
      expect(result.getCode()).toBe('FORBIDDEN');
      expect(result.data).toEqual({ field: 'principal', message: result.error });
      expect(result.meta).toMatchObject({ tool: 'resolve_verification', principal: 'agent:reviewer' });
    });

    it('refuses a worker that holds the scope from granting its own request with FORBIDDEN', async () => {
      const { registry } = setup(['verification:resolve']);
      const both = ToolContext.mcp('req-b', 'agent:worker', ['tasks:write', 'verification:resolve']);
      const requestId = requestIdOf(await registry.call('request_verification', { subject: 'gate:x' }, both));
      const result = await registry.call(
        'resolve_verification',
        { request_id: requestId, decision: 'grant', principal: 'agent:worker' },
        both,
      );
      expect(result.getCode()).toBe('FORBIDDEN');
      expect(result.error).toBe(`Principal 'agent:worker' opened verification request '${requestId}' and cannot grant it.`);
    });

    it('returns NOT_FOUND for an unknown request_id and CONFLICT for a second resolution', async () => {
      const { registry } = setup(['verification:resolve']);
      const unknown = await registry.call(
        'resolve_verification',
        { request_id: 'r-1', decision: 'grant', principal: 'agent:reviewer' },
        reviewer,
      );
      expect(unknown.getCode()).toBe('NOT_FOUND');
      const requestId = requestIdOf(await registry.call('request_verification', { subject: 'gate:x' }, worker));
      await registry.call('resolve_verification', { request_id: requestId, decision: 'reject', principal: 'agent:reviewer' }, reviewer);
      const again = await registry.call(
        'resolve_verification',
        { request_id: requestId, decision: 'grant', principal: 'agent:reviewer' },
        reviewer,
      );
      expect(again.getCode()).toBe('CONFLICT');
    });
  });

  describe('on telegram', () => {
    it('asks for a registry confirmation before either tool runs', async () => {
      const { registry, events, requestSpy, resolveSpy } = setup();
      const requester = ToolContext.telegram(1001, 'tg:ana');
      const approver = ToolContext.telegram(1002, 'tg:luis');

      const gate = await registry.call('request_verification', { subject: 'gate:x' }, requester);
      expect(gate.requiresConfirmation()).toBe(true);
      expect(gate.getConfirmToken()).toMatch(/^[0-9a-f]{32}$/);
      expect(requestSpy).not.toHaveBeenCalled();
      expect(events).toEqual([]);

      const request = await registry.call('request_verification', { subject: 'gate:x' }, requester, {
        confirmToken: gate.getConfirmToken() as string,
      });
      expect(requestSpy).toHaveBeenCalledTimes(1);
      const requestId = requestIdOf(request);
      expect(request.data).toMatchObject({ subject: 'gate:x', policy: 'single' });

      const resolveArgs = { request_id: requestId, decision: 'grant', principal: 'tg:luis' };
      const resolveGate = await registry.call('resolve_verification', resolveArgs, approver);
      expect(resolveGate.requiresConfirmation()).toBe(true);
      expect(resolveGate.getConfirmToken()).toMatch(/^[0-9a-f]{32}$/);
      expect(resolveSpy).not.toHaveBeenCalled();

      const resolved = await registry.call('resolve_verification', { ...resolveArgs }, approver, {
        confirmToken: resolveGate.getConfirmToken() as string,
      });
      expect(resolved.data).toMatchObject({ status: 'passed', principal: 'tg:luis' });
      expect(events.map((event) => event.name)).toEqual(['verification.requested', 'verification.granted']);
    });
  });

  describe('schema validation', () => {
    it('returns VALIDATION_ERROR and opens nothing when the policy is bogus', async () => {
      const { registry, events, requestSpy } = setup();
      const result = await registry.call('request_verification', { subject: 'gate:x', policy: 'bogus' }, ToolContext.cli());
      expect(result.success).toBe(false);
      expect(result.getCode()).toBe('VALIDATION_ERROR');
      expect(result.error).toBe('policy: Value must be one of: single, dual, quorum, auto');
      expect(requestSpy).not.toHaveBeenCalled();
      expect(events).toEqual([]);
    });

    it('returns VALIDATION_ERROR when resolve has no decision', async () => {
      const { registry, resolveSpy } = setup();
      const result = await registry.call('resolve_verification', { request_id: 'r-1', principal: 'agent:reviewer' }, ToolContext.cli());
      expect(result.getCode()).toBe('VALIDATION_ERROR');
      expect(result.error).toBe('Missing required field: decision');
      expect(resolveSpy).not.toHaveBeenCalled();
    });

    it(
      'returns the handler VALIDATION_ERROR with its code and the standard meta, ' +
        'audited as ERROR:VALIDATION_ERROR, when the subject is blank',
      async () => {
        const lines: string[] = [];
        const record = (_context: unknown, message: string) => {
          lines.push(message);
        };
        const registry = new ToolRegistry({
          defaultContext: () => ToolContext.cli(),
          logger: { debug: record, info: record, warn: record, error: record },
        });
        new VerificationTool(new HumanVerifier()).register(registry);
        const result = await registry.call('request_verification', { subject: '   ' }, ToolContext.cli());
        expect(result.success).toBe(false);
        expect(result.error).toBe('subject is required');
        expect(result.data).toEqual({ field: 'subject', message: 'subject is required' });
        expect(result.meta).toMatchObject({ code: 'VALIDATION_ERROR', type: 'error', tool: 'request_verification', channel: 'cli' });
        expect(lines.filter((line) => line.startsWith('[ToolAudit]'))).toEqual([
          expect.stringMatching(/^\[ToolAudit\] .* \| cli \| request_verification \| cli \| \d+ms \| ERROR:VALIDATION_ERROR \| args=/),
        ]);
      },
    );
  });
});
