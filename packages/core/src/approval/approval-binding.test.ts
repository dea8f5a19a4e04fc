import { describe, expect, it } from 'vitest';
import type { ApprovalClaim, ApprovalRedemption, ApprovalStore, PendingApproval } from '../contracts/approval-store.js';
import { MilpaError } from '../errors/milpa-error.js';
import { ApprovalBinding, digestArguments, type BoundToolCall } from './approval-binding.js';
import { checkApprovalClaim } from './check-approval-claim.js';

/** A store whose every answer takes a turn of the event loop, so racing redemptions interleave. */
function asyncStore(): ApprovalStore & { readonly records: Map<string, PendingApproval> } {
  const records = new Map<string, PendingApproval>();
  const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    records,
    async open(approval) {
      await tick();
      if (records.has(approval.approvalId)) return false;
      records.set(approval.approvalId, approval);
      return true;
    },
    async get(approvalId) {
      await tick();
      return records.get(approvalId) ?? null;
    },
    async redeem(approvalId: string, claim: ApprovalClaim): Promise<ApprovalRedemption> {
      await tick();
      // Checked and marked in one synchronous step, as the contract asks.
      const approval = records.get(approvalId) ?? null;
      if (approval === null) return { status: 'refused', refusal: 'not_found', approval };
      const refusal = checkApprovalClaim(approval, claim);
      if (refusal !== null) return { status: 'refused', refusal, approval };
      const used = { ...approval, redeemedAt: claim.at };
      records.set(approvalId, used);
      return { status: 'redeemed', approval: used };
    },
  };
}

const CALL: BoundToolCall = {
  toolCallId: 'call_1',
  toolName: 'delete_note',
  args: { id: 'n1', tags: ['a', 'b'] },
  principal: 'user:42',
  channel: 'web',
  runId: 'run_1',
};

function setup(scope: 'call' | 'caller' = 'call', ttlMs = 60_000) {
  const store = asyncStore();
  let now = Date.parse('2026-12-01T10:00:00Z');
  const binding = new ApprovalBinding({ store, namespace: 'test', ttlMs, scope, now: () => now });
  return { store, binding, advance: (ms: number) => (now += ms) };
}

describe('digestArguments', () => {
  it('is a 64-character hex SHA-256, equal for any key order and different for any other difference', async () => {
    const base = await digestArguments({ a: 1, b: { c: [1, 2], d: 'x' } });
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(await digestArguments({ b: { d: 'x', c: [1, 2] }, a: 1 })).toBe(base);
    expect(await digestArguments({ a: 1, b: { c: [2, 1], d: 'x' } })).not.toBe(base);
    expect(await digestArguments({ id: { n: 1 } })).not.toBe(await digestArguments({ id: '{"n":1}' }));
  });

  it('is null for arguments JSON cannot hold', async () => {
    expect(await digestArguments({ big: 1n })).toBeNull();
  });
});

describe('ApprovalBinding', () => {
  it('binds a call once (the first arguments win) and redeems it once', async () => {
    const { binding, store } = setup();
    expect(await binding.bind(CALL)).toBe('opened');
    expect(await binding.bind({ ...CALL, args: { id: 'n9' } })).toBe('kept');
    const redeemed = await binding.redeem({ ...CALL, args: { tags: ['a', 'b'], id: 'n1' } });
    expect(redeemed).toMatchObject({ ok: true, approval: { requestId: 'call_1', toolName: 'delete_note' } });
    expect(await binding.redeem(CALL)).toEqual({ ok: false, refusal: 'used' });
    const [record] = [...store.records.values()];
    expect(Object.isFrozen(record?.arguments)).toBe(true);
  });

  it('redeems once when many redemptions of the same call race', async () => {
    const { binding } = setup();
    await binding.bind(CALL);
    const answers = await Promise.all(Array.from({ length: 8 }, () => binding.redeem(CALL)));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1);
    expect(answers.filter((answer) => !answer.ok).map((answer) => (answer.ok ? null : answer.refusal))).toEqual(Array(7).fill('used'));
  });

  it.each([
    ['another tool', { toolName: 'archive_note' }, 'tool_mismatch'],
    ['another principal', { principal: 'user:99' }, 'principal_mismatch'],
    ['another channel', { channel: 'mcp' }, 'channel_mismatch'],
    ['another run', { runId: 'run_2' }, 'run_mismatch'],
    ['other arguments', { args: { id: 'n2', tags: ['a', 'b'] } }, 'arguments_changed'],
    ['another tool call id', { toolCallId: 'call_2' }, 'not_found'],
  ] as const)('refuses a redemption for %s, and the call the person saw still redeems', async (_name, change, refusal) => {
    const { binding } = setup();
    await binding.bind(CALL);
    expect(await binding.redeem({ ...CALL, ...change })).toEqual({ ok: false, refusal });
    expect((await binding.redeem(CALL)).ok).toBe(true);
  });

  it.each([
    ['another tool', { toolName: 'archive_note' }],
    ['another principal', { principal: 'user:99' }],
    ['another channel', { channel: 'mcp' }],
    ['another run', { runId: 'run_2' }],
  ] as const)("with scope 'caller', finds nothing for %s", async (_name, change) => {
    const { binding } = setup('caller');
    await binding.bind(CALL);
    expect(await binding.redeem({ ...CALL, ...change })).toEqual({ ok: false, refusal: 'not_found' });
    expect((await binding.redeem(CALL)).ok).toBe(true);
  });

  it('refuses a redemption after the binding expired', async () => {
    const { binding, advance } = setup('call', 1_000);
    await binding.bind(CALL);
    advance(1_001);
    expect(await binding.redeem(CALL)).toEqual({ ok: false, refusal: 'expired' });
  });

  it('closes a rejected call, so no later redemption runs it', async () => {
    const { binding } = setup();
    await binding.bind(CALL);
    await binding.close(CALL);
    expect(await binding.redeem(CALL)).toEqual({ ok: false, refusal: 'used' });
  });

  it('fails closed on a failing store, and never binds arguments JSON cannot hold', async () => {
    const broken: ApprovalStore = {
      open: () => Promise.reject(new Error('down')),
      get: () => Promise.reject(new Error('down')),
      redeem: () => Promise.reject(new Error('down')),
    };
    const binding = new ApprovalBinding({ store: broken, namespace: 'test', ttlMs: 1_000 });
    expect(await binding.bind(CALL)).toBe('failed');
    expect(await binding.redeem(CALL)).toEqual({ ok: false, refusal: 'unavailable' });
    await expect(binding.close(CALL)).resolves.toBeUndefined();
    expect(await setup().binding.bind({ ...CALL, args: { big: 1n } })).toBe('failed');
  });

  it('keeps namespaces and scopes apart, with ids of 32 hex characters', async () => {
    const store = asyncStore();
    const one = new ApprovalBinding({ store, namespace: 'one', ttlMs: 1_000 });
    const two = new ApprovalBinding({ store, namespace: 'two', ttlMs: 1_000 });
    expect(await one.idOf(CALL)).toMatch(/^[0-9a-f]{32}$/);
    expect(await one.idOf(CALL)).not.toBe(await two.idOf(CALL));
    await one.bind(CALL);
    expect(await two.redeem(CALL)).toEqual({ ok: false, refusal: 'not_found' });
  });

  it('throws INVALID_ARGUMENT for a missing store, an empty namespace or a TTL that is not positive', () => {
    const store = asyncStore();
    expect(() => new ApprovalBinding({ store: null as never, namespace: 'x', ttlMs: 1 })).toThrow(MilpaError);
    expect(() => new ApprovalBinding({ store, namespace: '', ttlMs: 1 })).toThrow(/namespace/);
    expect(() => new ApprovalBinding({ store, namespace: 'x', ttlMs: 0 })).toThrow(/ttlMs/);
  });
});
