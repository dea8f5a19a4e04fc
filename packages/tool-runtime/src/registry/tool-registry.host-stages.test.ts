import { EventDispatcher } from '@milpa/events';
import { MilpaError, RateLimitResult, ToolContext, ToolResult, Type, defineTool, type RateLimiter } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import type { HostStage, HostStagePlacement } from '../pipeline/host-stage.js';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';

const member = ToolContext.web('u-1', ['pages:write']);

function tracingLimiter(trace: string[]): RateLimiter {
  return {
    consume: () => {
      trace.push('rate_limit');
      return RateLimitResult.allowed(10);
    },
    getUsage: () => 0,
    reset: () => undefined,
  };
}

function pagesRegistry(stages: readonly HostStagePlacement[], trace: string[] = [], logger = new RecordingLogger()) {
  const dispatcher = new EventDispatcher({ logger });
  dispatcher.subscribe('tool.executing', () => {
    trace.push('emit_executing');
  });
  const registry = new ToolRegistry({ stages, logger, dispatcher, rateLimiter: tracingLimiter(trace) });
  const handler = vi.fn(() => {
    trace.push('execute');
    return 'published';
  });
  registry.register(
    defineTool({
      name: 'publish_page',
      description: 'Publish a page',
      scopes: ['pages:write'],
      mutating: true,
      input: Type.Object({ site: Type.String(), page: Type.Integer() }),
      handler,
    }),
  );
  return { registry, handler, logger, trace };
}

const ownSite: HostStage = {
  name: 'own_site',
  description: "refuses pages outside the caller's own site",
  check: ({ args }) => (args['site'] === 'home' ? undefined : ToolResult.failure('FORBIDDEN', 'Not your site')),
};

describe('ToolRegistry', () => {
  describe('stages: host stages', () => {
    it('runs a host stage at its position, after authorize and before the rate limiter', async () => {
      const trace: string[] = [];
      const stage: HostStage = { name: 'tracer', check: () => void trace.push('tracer') };
      const { registry } = pagesRegistry([{ before: 'rate_limit', stage }], trace);
      const result = await registry.call('publish_page', { site: 'home', page: 1 }, member);
      expect(result.success).toBe(true);
      expect(trace).toEqual(['tracer', 'rate_limit', 'emit_executing', 'execute']);
    });

    it('runs several host stages at one position in the order given', async () => {
      const trace: string[] = [];
      const first: HostStage = { name: 'first', check: () => void trace.push('first') };
      const second: HostStage = { name: 'second', check: () => void trace.push('second') };
      const { registry } = pagesRegistry(
        [
          { after: 'rate_limit', stage: first },
          { after: 'rate_limit', stage: second },
        ],
        trace,
      );
      await registry.call('publish_page', { site: 'home', page: 1 }, member);
      expect(trace).toEqual(['rate_limit', 'first', 'second', 'emit_executing', 'execute']);
    });

    it("refuses the call with the stage's failed result, audited, and runs nothing after it", async () => {
      const trace: string[] = [];
      const { registry, handler, logger } = pagesRegistry([{ before: 'rate_limit', stage: ownSite }], trace);
      const result = await registry.call('publish_page', { site: 'elsewhere', page: 1 }, member);
      expect(result.success).toBe(false);
      expect(result.error).toBe('Not your site');
      expect(result.meta).toMatchObject({ code: 'FORBIDDEN', stage: 'own_site', tool: 'publish_page', principal: 'u-1' });
      expect(handler).not.toHaveBeenCalled();
      expect(trace).toEqual([]);
      const records = logger.lines
        .filter((line) => 'audit' in line.context)
        .map((line) => line.context['audit'] as Record<string, unknown>);
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ outcome: 'refused', code: 'FORBIDDEN', reason: 'Not your site' });
    });

    it('sees the validated arguments, frozen', async () => {
      let seen: Record<string, unknown> | undefined;
      const stage: HostStage = {
        name: 'peek',
        check: ({ args }) => {
          seen = args;
        },
      };
      const { registry } = pagesRegistry([{ after: 'validate', stage }]);
      const invalid = await registry.call('publish_page', { site: 'home', page: 'one' }, member);
      expect(invalid.meta['code']).toBe('VALIDATION_ERROR');
      expect(seen).toBeUndefined();
      await registry.call('publish_page', { site: 'home', page: 1 }, member);
      expect(seen).toEqual({ site: 'home', page: 1 });
      expect(Object.isFrozen(seen)).toBe(true);
    });

    it.each([
      [
        'throws',
        () => {
          throw new Error('tenant service down');
        },
      ],
      ['rejects', () => Promise.reject(new Error('tenant service down'))],
    ])('refuses the call fail-closed, naming the stage, when the stage %s', async (_label, check) => {
      const { registry, handler } = pagesRegistry([{ before: 'authorize', stage: { name: 'tenant', check } as HostStage }]);
      const result = await registry.call('publish_page', { site: 'home', page: 1 }, member);
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toBe("Tool call refused: the host stage 'tenant' failed (fail-closed): tenant service down");
      expect(handler).not.toHaveBeenCalled();
    });

    it.each([
      ['a success result', ToolResult.success('fine')],
      ['a string', 'no'],
      ['false', false],
    ])('refuses the call fail-closed when the stage answers %s', async (_label, answer) => {
      const { registry, handler } = pagesRegistry([
        { before: 'confirm', stage: { name: 'odd', check: () => answer } as unknown as HostStage },
      ]);
      const result = await registry.call('publish_page', { site: 'home', page: 1 }, member);
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toContain("the host stage 'odd' failed");
      expect(handler).not.toHaveBeenCalled();
    });

    it('waits for an async stage and refuses with TIMEOUT when the caller aborts while it stalls', async () => {
      const { registry, handler } = pagesRegistry([
        { before: 'emit_executing', stage: { name: 'stall', check: () => new Promise(() => undefined) } },
      ]);
      const controller = new AbortController();
      const pending = registry.call('publish_page', { site: 'home', page: 1 }, member, { signal: controller.signal });
      controller.abort();
      const result = await pending;
      expect(result.meta['code']).toBe('TIMEOUT');
      expect(handler).not.toHaveBeenCalled();
    });

    it('runs in plan mode when placed before plan_mode, and not when placed after it', async () => {
      const early = vi.fn();
      const late = vi.fn();
      const { registry } = pagesRegistry([
        { before: 'plan_mode', stage: { name: 'early', check: early } },
        { after: 'plan_mode', stage: { name: 'late', check: late } },
      ]);
      const plan = await registry.call('publish_page', { site: 'home', page: 1 }, member.asPlan());
      expect(plan.data).toHaveProperty('plan');
      expect(early).toHaveBeenCalledTimes(1);
      expect(late).not.toHaveBeenCalled();
    });

    it('lists each host stage under its own name, at its position, in inspect', () => {
      const { registry } = pagesRegistry([{ before: 'rate_limit', stage: ownSite }]);
      const plan = registry.inspect('publish_page', member);
      const kinds = plan?.steps.map((step) => step.kind);
      expect(kinds?.slice(4, 9)).toEqual(['authorize', 'idempotency', 'rules', 'host:own_site', 'rate_limit']);
      expect(plan?.getStep('host:own_site').source).toContain("refuses pages outside the caller's own site");
    });

    it.each([
      ['after tool.executing', { after: 'emit_executing', stage: ownSite }, /must run before tool.executing/],
      ['before execute', { before: 'execute', stage: ownSite }, /must run before tool.executing/],
      ['before validation', { before: 'validate', stage: ownSite }, /sees validated arguments/],
      ['at an unknown position', { before: 'somewhere', stage: ownSite }, /before takes one of/],
      ['with both before and after', { before: 'authorize', after: 'validate', stage: ownSite }, /exactly one of before or after/],
      ['with neither before nor after', { stage: ownSite }, /exactly one of before or after/],
      ['named like a built-in stage', { before: 'authorize', stage: { ...ownSite, name: 'rate_limit' } }, /already exists/],
      ['with an invalid name', { before: 'authorize', stage: { ...ownSite, name: 'Own Site' } }, /lower-case letters/],
      ['without a check function', { before: 'authorize', stage: { name: 'x' } }, /check\(call\) function/],
    ])('throws INVALID_ARGUMENT at construction for a stage placed %s', (_label, placement, message) => {
      let caught: unknown;
      try {
        new ToolRegistry({ stages: [placement as unknown as HostStagePlacement] });
      } catch (error) {
        caught = error;
      }
      expect(MilpaError.isInstance(caught)).toBe(true);
      expect((caught as MilpaError).code).toBe('INVALID_ARGUMENT');
      expect((caught as MilpaError).message).toMatch(message);
    });

    it('refuses two host stages with one name', () => {
      expect(
        () =>
          new ToolRegistry({
            stages: [
              { before: 'authorize', stage: ownSite },
              { after: 'confirm', stage: ownSite },
            ],
          }),
      ).toThrow(/already exists/);
    });
  });
});
