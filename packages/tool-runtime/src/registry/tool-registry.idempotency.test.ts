import { ApprovalVerdict, ToolContext, Type, defineTool, type IdempotencyStore } from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { InMemoryIdempotencyStore } from '../idempotency/in-memory-idempotency-store.js';
import { InMemoryRateLimiter } from '../rate-limiting/in-memory-rate-limiter.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const agent = (principal = 'agent:7', runId: string | null = null) =>
  ToolContext.mcp(`req-${Math.random().toString(36).slice(2, 8)}`, principal, ['invoices:write']).with({ runId });

function setup(options: ToolRegistryOptions = {}, handler?: (args: { amount: number }) => unknown) {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({ logger, ...options });
  let next = 0;
  const create = vi.fn(handler ?? ((args: { amount: number }) => ({ invoice: ++next, amount: args.amount })));
  registry.register(
    defineTool({
      name: 'create_invoice',
      description: 'Create an invoice',
      input: Type.Object({ amount: Type.Integer({ minimum: 1 }) }, { additionalProperties: false }),
      mutating: true,
      scopes: ['invoices:write'],
      handler: create,
    }),
  );
  registry.register(
    defineTool({
      name: 'void_invoice',
      description: 'Void an invoice',
      input: Type.Object({ amount: Type.Integer() }),
      mutating: true,
      handler: () => ({ voided: true }),
    }),
  );
  return { registry, logger, create };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('ToolRegistry', () => {
  describe('idempotency keys', () => {
    it('runs the first call with a key and answers a retry with its result, marked idempotent_replay, without running', async () => {
      const { registry, create, logger } = setup();
      const first = await registry.call('create_invoice', { amount: 120 }, agent(), { idempotencyKey: 'order-7' });
      const retryContext = agent();
      const retry = await registry.call('create_invoice', { amount: 120 }, retryContext, { idempotencyKey: 'order-7' });
      expect(create).toHaveBeenCalledTimes(1);
      expect(first.data).toEqual({ invoice: 1, amount: 120 });
      expect(first.meta['idempotent_replay']).toBeUndefined();
      expect(retry.success).toBe(true);
      expect(retry.data).toEqual({ invoice: 1, amount: 120 });
      expect(retry.meta).toMatchObject({ idempotent_replay: true, request_id: retryContext.requestId, tool: 'create_invoice' });
      const outcomes = logger.auditRecords().map((record) => record.outcome);
      expect(outcomes).toEqual(['ok', 'replayed']);
    });

    it('treats arguments in another key order as the same call', async () => {
      const { registry, create } = setup({}, (args) => ({ ...args }));
      registry.register(
        defineTool({
          name: 'transfer',
          description: 't',
          input: Type.Object({ from: Type.String(), to: Type.String() }),
          handler: create as never,
        }),
      );
      await registry.call('transfer', { from: 'a', to: 'b' }, agent(), { idempotencyKey: 'k' });
      const retry = await registry.call('transfer', { to: 'b', from: 'a' }, agent(), { idempotencyKey: 'k' });
      expect(retry.meta['idempotent_replay']).toBe(true);
      expect(create).toHaveBeenCalledTimes(1);
    });

    it('refuses the key with other arguments or another tool as CONFLICT, and runs nothing', async () => {
      const { registry, create } = setup();
      await registry.call('create_invoice', { amount: 120 }, agent(), { idempotencyKey: 'order-7' });
      const otherArgs = await registry.call('create_invoice', { amount: 121 }, agent(), { idempotencyKey: 'order-7' });
      expect(otherArgs.getCode()).toBe('CONFLICT');
      expect(otherArgs.meta['idempotency_refusal']).toBe('arguments_differ');
      expect(otherArgs.error).toContain('first used with other arguments');
      const otherTool = await registry.call('void_invoice', { amount: 120 }, agent(), { idempotencyKey: 'order-7' });
      expect(otherTool.meta).toMatchObject({ code: 'CONFLICT', idempotency_refusal: 'tool_differs' });
      expect(create).toHaveBeenCalledTimes(1);
    });

    it('keeps a key under JSON [principal, key], as earlier releases stored it, quotes and backslashes included', async () => {
      const store = new InMemoryIdempotencyStore();
      const { registry } = setup({ idempotencyStore: store });
      const key = 'order "7" \\ \u00e9';
      await registry.call('create_invoice', { amount: 120 }, agent('agent:"7"'), { idempotencyKey: key });
      expect(store.get(JSON.stringify(['agent:"7"', key]))).toMatchObject({ state: 'completed', toolName: 'create_invoice' });
      expect(store.size()).toBe(1);
    });

    it('scopes keys to the principal: another principal with the same key runs its own call', async () => {
      const { registry, create } = setup();
      await registry.call('create_invoice', { amount: 120 }, agent('agent:7'), { idempotencyKey: 'order-7' });
      const other = await registry.call('create_invoice', { amount: 120 }, agent('agent:8'), { idempotencyKey: 'order-7' });
      expect(other.meta['idempotent_replay']).toBeUndefined();
      expect(other.data).toEqual({ invoice: 2, amount: 120 });
      expect(create).toHaveBeenCalledTimes(2);
    });

    it('runs the handler once when 50 calls with one key race, and every caller gets the same result', async () => {
      const { registry, create } = setup({}, async (args) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { invoice: 1, amount: args.amount };
      });
      const results = await Promise.all(
        Array.from({ length: 50 }, () => registry.call('create_invoice', { amount: 5 }, agent(), { idempotencyKey: 'race' })),
      );
      expect(create).toHaveBeenCalledTimes(1);
      expect(results.every((result) => result.success)).toBe(true);
      expect(new Set(results.map((result) => JSON.stringify(result.data)))).toEqual(new Set([JSON.stringify({ invoice: 1, amount: 5 })]));
      expect(results.filter((result) => result.meta['idempotent_replay'] === true)).toHaveLength(49);
    });

    it('stops waiting for a first call in flight when the caller aborts, and runs nothing', async () => {
      let finish: () => void = () => undefined;
      const { registry, create } = setup({}, () => new Promise((resolve) => (finish = () => resolve({ invoice: 1 }))));
      const first = registry.call('create_invoice', { amount: 5 }, agent(), { idempotencyKey: 'slow' });
      await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(1));
      const controller = new AbortController();
      const waiting = registry.call('create_invoice', { amount: 5 }, agent(), { idempotencyKey: 'slow', signal: controller.signal });
      setTimeout(() => controller.abort(), 30);
      const gaveUp = await waiting;
      expect(gaveUp.getCode()).toBe('TIMEOUT');
      finish();
      expect((await first).success).toBe(true);
      expect(create).toHaveBeenCalledTimes(1);
      const later = await registry.call('create_invoice', { amount: 5 }, agent(), { idempotencyKey: 'slow' });
      expect(later.meta['idempotent_replay']).toBe(true);
    });

    it('frees the key when the first call was refused before running, so a retry runs', async () => {
      const { registry, create } = setup({
        rateLimiter: new InMemoryRateLimiter(),
        rateLimit: { windowSeconds: 60, maxTokens: 5, cost: 1, mutatingCost: 5 },
      });
      await registry.call('create_invoice', { amount: 1 }, agent());
      const limited = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'after-limit' });
      expect(limited.getCode()).toBe('RATE_LIMITED');
      registry.setRateLimiter(null);
      const retry = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'after-limit' });
      expect(retry.success).toBe(true);
      expect(retry.meta['idempotent_replay']).toBeUndefined();
      expect(create).toHaveBeenCalledTimes(2);
    });

    it('frees the key of a call the approval gate denied, since nothing ran', async () => {
      const { registry, create } = setup({ approvalGate: { check: () => ApprovalVerdict.deny('not today') } });
      const denied = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'denied' });
      expect(denied.getCode()).toBe('APPROVAL_DENIED');
      expect(await registry.getIdempotencyStore().get(JSON.stringify(['agent:7', 'denied']))).toBeNull();
      expect(create).not.toHaveBeenCalled();
    });

    it('keeps a failure the handler threw, so a retry gets the failure back and nothing runs twice', async () => {
      const { registry, create } = setup({}, () => {
        throw new Error('payment provider down');
      });
      const first = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'fails' });
      const retry = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'fails' });
      expect(first.success).toBe(false);
      expect(retry.success).toBe(false);
      expect(retry.error).toBe(first.error);
      expect(retry.meta).toMatchObject({ code: first.meta['code'], idempotent_replay: true });
      expect(create).toHaveBeenCalledTimes(1);
    });

    it('keeps a result that is not JSON data without its data, and still never runs twice', async () => {
      const { registry, create } = setup({}, () => ({ big: 10n }));
      const first = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'bigint' });
      expect(first.success).toBe(true);
      const retry = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'bigint' });
      expect(retry.meta).toMatchObject({ idempotent_replay: true, replay_data_omitted: true });
      expect(retry.data).toBeNull();
      expect(create).toHaveBeenCalledTimes(1);
    });

    it('does not spend the rate budget for a replay', async () => {
      const limiter = new InMemoryRateLimiter();
      const consume = vi.spyOn(limiter, 'consume');
      const { registry } = setup({ rateLimiter: limiter });
      await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'cheap' });
      const consumed = consume.mock.calls.length;
      await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'cheap' });
      expect(consume.mock.calls.length).toBe(consumed);
    });

    it("records a replay in the run's history as replayed, not as a second execution", async () => {
      const { registry } = setup();
      const runId = await registry.startRun();
      await registry.call('create_invoice', { amount: 9 }, agent('agent:7', runId), { idempotencyKey: 'run-key' });
      await registry.call('create_invoice', { amount: 9 }, agent('agent:7', runId), { idempotencyKey: 'run-key' });
      const history = await registry.getHistoryStore().load(runId);
      expect(history?.observations.map((observation) => observation.outcome)).toEqual(['executed', 'replayed']);
    });

    it.each([
      ['an empty key', ''],
      ['a key over 255 characters', 'k'.repeat(256)],
      ['a key with a newline', 'order\n7'],
      ['a number', 7],
    ])('refuses %s with VALIDATION_ERROR and runs nothing', async (_label, key) => {
      const { registry, create } = setup();
      const refused = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: key as string });
      expect(refused.getCode()).toBe('VALIDATION_ERROR');
      expect(refused.error).toContain('idempotencyKey');
      expect(create).not.toHaveBeenCalled();
    });

    it('refuses, as of unknown outcome, a key whose first call never finished within its lease', async () => {
      const store = new InMemoryIdempotencyStore();
      const { registry, create } = setup({ idempotencyStore: store });
      const tenMinutesAgo = new Date(Date.now() - 600_000);
      store.begin({
        key: JSON.stringify(['agent:7', 'crashed']),
        toolName: 'create_invoice',
        principal: 'agent:7',
        argumentsDigest: '4a6d5b29dc8b0f1d0f1e7ea2e3c5fe70b1fbd5c8b0b4b6ff7ee53d1c0b9e8a52',
        owner: 'a-process-that-died',
        at: tenMinutesAgo,
        leaseMs: 1_000,
        retentionMs: 3_600_000,
      });
      // The digest above is not this call's, so first show the binding check, then a matching one.
      const mismatch = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'crashed' });
      expect(mismatch.meta['idempotency_refusal']).toBe('arguments_differ');
      const { digestArguments } = await import('../approval/digest-arguments.js');
      store.begin({
        key: JSON.stringify(['agent:7', 'crashed-2']),
        toolName: 'create_invoice',
        principal: 'agent:7',
        argumentsDigest: digestArguments({ amount: 9 }),
        owner: 'a-process-that-died',
        at: tenMinutesAgo,
        leaseMs: 1_000,
        retentionMs: 3_600_000,
      });
      const unknown = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'crashed-2' });
      expect(unknown.meta).toMatchObject({ code: 'CONFLICT', idempotency_refusal: 'outcome_unknown' });
      expect(unknown.error).toContain('whether it ran is unknown');
      expect(create).not.toHaveBeenCalled();
    });

    it('runs again once the key is past its retention', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(new Date('2026-12-01T10:00:00Z'));
      const { registry, create } = setup({ idempotencyRetentionSeconds: 60 });
      await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'short' });
      vi.setSystemTime(new Date('2026-12-01T10:00:59Z'));
      expect((await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'short' })).meta['idempotent_replay']).toBe(
        true,
      );
      vi.setSystemTime(new Date('2026-12-01T10:01:01Z'));
      const fresh = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'short' });
      expect(fresh.meta['idempotent_replay']).toBeUndefined();
      expect(create).toHaveBeenCalledTimes(2);
    });

    describe('a store that fails', () => {
      const failing = (answer: () => unknown): IdempotencyStore => ({
        begin: answer as IdempotencyStore['begin'],
        complete: () => true,
        release: () => true,
        get: () => null,
      });

      it.each([
        [
          'throws',
          () =>
            failing(() => {
              throw new Error('connection refused');
            }),
        ],
        ['rejects', () => failing(() => Promise.reject(new Error('timeout')))],
        ['answers garbage', () => failing(() => ({ status: 'maybe' }))],
        ['answers a replay without a result', () => failing(() => ({ status: 'replay' }))],
      ])('refuses the call fail-closed, naming the idempotency store, when the store %s', async (_label, store) => {
        const { registry, create, logger } = setup({ idempotencyStore: store() });
        const refused = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'k' });
        expect(refused.meta).toMatchObject({ code: 'STORE_UNAVAILABLE', store: 'idempotency' });
        expect(refused.error).toContain('the idempotency store failed (fail-closed)');
        expect(create).not.toHaveBeenCalled();
        expect(logger.auditRecords().map((record) => record.outcome)).toEqual(['internal_error']);
      });

      it('refuses a call whose store hangs when the caller aborts', async () => {
        const { registry, create } = setup({ idempotencyStore: failing(() => new Promise(() => undefined)) });
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 20);
        const refused = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'k', signal: controller.signal });
        expect(refused.getCode()).toBe('TIMEOUT');
        expect(create).not.toHaveBeenCalled();
      });

      it('logs a store that fails to keep the result; the result still reaches the caller', async () => {
        const store = new InMemoryIdempotencyStore();
        vi.spyOn(store, 'complete').mockImplementation(() => {
          throw new Error('disk full');
        });
        const { registry, logger } = setup({ idempotencyStore: store });
        const result = await registry.call('create_invoice', { amount: 9 }, agent(), { idempotencyKey: 'k' });
        expect(result.success).toBe(true);
        expect(logger.messages('error').some((message) => message.includes('idempotency store failed after the call settled'))).toBe(true);
      });
    });

    it('rejects a store without the four operations at construction', () => {
      expect(() => new ToolRegistry({ idempotencyStore: { begin: () => ({ status: 'started' }) } as never })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
      expect(() => new ToolRegistry({ idempotencyLeaseSeconds: 0 })).toThrow(/idempotencyLeaseSeconds/);
      expect(() => new ToolRegistry({ idempotencyRetentionSeconds: 1.5 })).toThrow(/idempotencyRetentionSeconds/);
    });

    it('leaves calls without a key alone: they run every time', async () => {
      const { registry, create } = setup();
      await registry.call('create_invoice', { amount: 9 }, agent());
      await registry.call('create_invoice', { amount: 9 }, agent());
      expect(create).toHaveBeenCalledTimes(2);
    });
  });
});
