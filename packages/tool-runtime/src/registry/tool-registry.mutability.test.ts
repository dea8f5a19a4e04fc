import { InvocationDecision, ToolContext, Type, defineTool, type RateLimiter, type ToolArgs } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { toProviderTool } from '../routing/provider-shapes.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const input = Type.Object({ command: Type.String(), lines: Type.Optional(Type.Integer()) }, { additionalProperties: false });

/** A shell-like tool: `ls` reads, anything else writes; `mutating` is the spy (or the answer given). */
function setup(options: ToolRegistryOptions = {}, mutating: (args: ToolArgs) => unknown = (args) => args['command'] !== 'ls') {
  const spy = vi.fn(mutating);
  const handler = vi.fn((args: ToolArgs) => ({ ran: args['command'] }));
  const registry = new ToolRegistry({
    channelPolicies: {
      api: { allow_all: false, block_mutating: true },
      chat: { allow_all: false, require_confirmation_for_mutating: true },
    },
    ...options,
  });
  registry.register(
    defineTool({
      name: 'shell_exec',
      description: 'Run a command',
      input,
      clamps: { lines: [1, 10] },
      mutating: spy as (args: ToolArgs) => boolean,
      handler,
    }),
  );
  return { registry, spy, handler };
}

const api = () => new ToolContext({ principal: 'user:1', channel: 'api', scopes: ['*'] });
const chat = () => new ToolContext({ principal: 'user:1', channel: 'chat', scopes: ['*'] });
const cli = () => ToolContext.cli();

function recordingLimiter(): RateLimiter & { costs: number[] } {
  const costs: number[] = [];
  return { costs, consume: (_key: string, cost: number) => (costs.push(cost), { allowed: true }) } as RateLimiter & { costs: number[] };
}

describe('ToolRegistry with a per-call mutating function', () => {
  describe('call: rate limit', () => {
    it('charges the mutating cost only when the arguments make the call mutating', async () => {
      const limiter = recordingLimiter();
      const { registry } = setup({ rateLimiter: limiter, rateLimit: { cost: 1, mutatingCost: 5 } });
      await registry.call('shell_exec', { command: 'ls' }, cli());
      await registry.call('shell_exec', { command: 'rm -rf tmp' }, cli());
      expect(limiter.costs).toEqual([1, 5]);
    });
  });

  describe('call: block_mutating', () => {
    it('runs a call whose arguments make it read-only on a channel that blocks mutating tools', async () => {
      const { registry, handler } = setup();
      const result = await registry.call('shell_exec', { command: 'ls' }, api());
      expect(result.success).toBe(true);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it('refuses with FORBIDDEN and reason block_mutating a call whose arguments make it mutating', async () => {
      const { registry, handler } = setup();
      const result = await registry.call('shell_exec', { command: 'rm x' }, api());
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(result.error).toBe(
        "Call to 'shell_exec' is blocked on channel 'api': its arguments make it mutating (block_mutating policy).",
      );
      expect(handler).not.toHaveBeenCalled();
    });

    it('counts a function that throws as mutating', async () => {
      const limiter = recordingLimiter();
      const { registry, handler } = setup({ rateLimiter: limiter }, () => {
        throw new Error('cannot tell');
      });
      expect((await registry.call('shell_exec', { command: 'ls' }, api())).meta['code']).toBe('FORBIDDEN');
      await registry.call('shell_exec', { command: 'ls' }, cli());
      expect(limiter.costs).toEqual([5]);
      expect(handler).toHaveBeenCalledTimes(1);
    });

    it.each([
      ['undefined', undefined],
      ["'no'", 'no'],
      ['0', 0],
      ['a promise of false', Promise.resolve(false)],
    ])('counts a non-boolean answer (%s) as mutating', async (_label, answer) => {
      const { registry, handler } = setup({}, () => answer);
      expect((await registry.call('shell_exec', { command: 'ls' }, api())).meta['code']).toBe('FORBIDDEN');
      expect(handler).not.toHaveBeenCalled();
    });

    it('gives a caller who sends invalid arguments the validation error, without asking the function', async () => {
      const { registry, spy } = setup();
      const result = await registry.call('shell_exec', { command: 42 }, api());
      expect(result.meta['code']).toBe('VALIDATION_ERROR');
      expect(spy).not.toHaveBeenCalled();
    });

    it('asks the rule provider with the per-call answer', async () => {
      const seen: boolean[] = [];
      const { registry } = setup({
        ruleProvider: { findMatchingRule: (_channel, _principal, _tool, mutating) => (seen.push(mutating), null) },
      });
      await registry.call('shell_exec', { command: 'ls' }, api());
      await registry.call('shell_exec', { command: 'rm x' }, api());
      expect(seen).toEqual([false, true]);
    });
  });

  describe('call: confirmation', () => {
    it('asks for confirmation only when the arguments make the call mutating, and runs the confirmed arguments', async () => {
      const { registry, handler } = setup();
      const read = await registry.call('shell_exec', { command: 'ls' }, chat());
      expect(read.data).toEqual({ ran: 'ls' });
      const asked = await registry.call('shell_exec', { command: 'rm x' }, chat());
      expect(asked.requiresConfirmation()).toBe(true);
      expect(handler).toHaveBeenCalledTimes(1);
      const confirmed = await registry.call('shell_exec', { command: 'rm x' }, chat(), { confirmToken: asked.getConfirmToken() as string });
      expect(confirmed.data).toEqual({ ran: 'rm x' });
      expect(handler).toHaveBeenCalledTimes(2);
    });

    it('keeps a replay mutating when its own arguments read but the confirmed ones write', async () => {
      const seen: boolean[] = [];
      const { registry, spy } = setup({
        stages: [{ after: 'confirm', stage: { name: 'observe', check: (call) => (seen.push(call.mutating), undefined) } }],
      });
      registry.register(
        defineTool({
          name: 'always_confirm',
          description: 'd',
          input,
          requiresConfirmation: true,
          mutating: spy as (args: ToolArgs) => boolean,
          handler: (args) => args,
        }),
      );
      const asked = await registry.call('always_confirm', { command: 'rm x' }, cli());
      spy.mockClear();
      // The replay's own arguments ('ls') read; the redeemed ones, which execute, write.
      const replay = await registry.call('always_confirm', { command: 'ls' }, cli(), { confirmToken: asked.getConfirmToken() as string });
      expect(replay.data).toEqual({ command: 'rm x' });
      expect(spy.mock.calls.map(([args]) => args['command'])).toEqual(['ls', 'rm x']);
      expect(seen).toEqual([true]);
    });
  });

  describe('call: asking the function', () => {
    it('asks exactly once per call, with the frozen validated (clamped) arguments the handler gets', async () => {
      const limiter = recordingLimiter();
      const { registry, spy, handler } = setup({ rateLimiter: limiter, ruleProvider: { findMatchingRule: () => null } });
      const result = await registry.call('shell_exec', { command: 'rm x', lines: 99 }, chat());
      expect(result.requiresConfirmation()).toBe(true);
      expect(spy).toHaveBeenCalledTimes(1);
      const [args] = spy.mock.calls[0]!;
      expect(args).toEqual({ command: 'rm x', lines: 10 });
      expect(Object.isFrozen(args)).toBe(true);

      spy.mockClear();
      await registry.call('shell_exec', { command: 'ls', lines: 99 }, chat());
      expect(spy).toHaveBeenCalledTimes(1);
      expect(handler.mock.calls[0]?.[0]).toBe(spy.mock.calls[0]?.[0]);
    });

    it('reports the per-call answer in plan mode', async () => {
      const { registry } = setup();
      const read = await registry.call('shell_exec', { command: 'ls' }, chat().asPlan());
      const write = await registry.call('shell_exec', { command: 'rm x' }, chat().asPlan());
      expect(read.data).toMatchObject({ plan: { mutating: false, requires_confirmation: false } });
      expect(write.data).toMatchObject({ plan: { mutating: true, requires_confirmation: true } });
    });

    it('gives host stages the same answer the gates used', async () => {
      const seen: boolean[] = [];
      const { registry, spy } = setup({
        stages: [{ before: 'emit_executing', stage: { name: 'observe', check: (call) => (seen.push(call.mutating), undefined) } }],
      });
      await registry.call('shell_exec', { command: 'ls' }, cli());
      await registry.call('shell_exec', { command: 'rm x' }, cli());
      expect(seen).toEqual([false, true]);
      expect(spy).toHaveBeenCalledTimes(2);
    });
  });

  describe('call: invocation rules', () => {
    it('gives rules and target resolvers the per-call answer, without asking the function again', async () => {
      const seen: boolean[] = [];
      const { registry, spy } = setup({
        rules: [{ identifier: 'observe', evaluate: (invocation) => (seen.push(invocation.mutating), InvocationDecision.allow()) }],
        targetResolvers: [{ resolve: (request) => (seen.push(request.mutating), null) }],
      });
      await registry.call('shell_exec', { command: 'ls' }, cli());
      await registry.call('shell_exec', { command: 'rm x' }, cli());
      expect(seen).toEqual([false, false, true, true]);
      expect(spy).toHaveBeenCalledTimes(2);
    });
  });

  describe('listToolsFor', () => {
    it('keeps a per-call tool listed on a channel that blocks mutating tools, and drops an always-mutating one', async () => {
      const { registry, spy } = setup();
      registry.register(defineTool({ name: 'file_write', description: 'Write a file', mutating: true, handler: () => 'ok' }));
      const listed = await registry.listToolsFor(api());
      expect(listed.map((definition) => definition.name)).toEqual(['shell_exec']);
      expect(spy).not.toHaveBeenCalled();
    });
  });

  describe('inspect', () => {
    it('says the mutability depends on arguments where no arguments are known', () => {
      const { registry, spy } = setup({ rateLimiter: recordingLimiter() });
      const plan = registry.inspect('shell_exec', chat())!;
      expect(plan.getStep('rate_limit').source).toContain('mutating depends on arguments → cost 5 or 1 per call');
      expect(plan.getStep('confirm').presence).toBe('conditional');
      expect(plan.getStep('confirm').source).toContain('tool.mutating depends on arguments');
      expect(plan.getStep('execute').mutates).toBe(true);
      expect(plan.getStep('execute').source).toContain('mutating depends on arguments');
      expect(registry.inspect('shell_exec', api())!.getStep('authorize').source).toContain('tool.mutating depends on arguments');
      expect(spy).not.toHaveBeenCalled();
    });
  });

  describe('provider shapes', () => {
    it('announces a per-call tool to MCP clients as destructive', () => {
      const { registry } = setup();
      expect(toProviderTool(registry.getDefinition('shell_exec')!, 'mcp').annotations).toEqual({
        readOnlyHint: false,
        destructiveHint: true,
      });
    });
  });
});
