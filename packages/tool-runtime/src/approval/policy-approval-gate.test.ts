import { ApprovalVerdict, MilpaError, ToolContext, Type, defineTool } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '../registry/tool-registry.js';
import { policyApprovalGate } from './policy-approval-gate.js';

function registryWith(gate: ReturnType<typeof policyApprovalGate>) {
  const handler = vi.fn(() => 'dropped');
  const registry = new ToolRegistry({ approvalGate: gate });
  registry.register(
    defineTool({ name: 'drop_table', description: 'Drop a table', input: Type.Object({ table: Type.String() }), mutating: true, handler }),
  );
  return { registry, handler };
}

const admin = () => ToolContext.web('ana', ['db:admin']);
const member = () => ToolContext.web('luis', []);

describe('policyApprovalGate', () => {
  it('allows when the function answers true and denies with the reason when it answers false', async () => {
    const gate = policyApprovalGate(({ context }) => context.hasScope('db:admin'), { reason: 'Only database admins drop tables.' });
    const { registry, handler } = registryWith(gate);
    expect((await registry.call('drop_table', { table: 'users' }, admin())).success).toBe(true);
    const refused = await registry.call('drop_table', { table: 'users' }, member());
    expect(refused.meta['code']).toBe('APPROVAL_DENIED');
    expect(refused.error).toBe("Call to 'drop_table' was not approved: Only database admins drop tables.");
    expect(handler).toHaveBeenCalledTimes(1);
  });

  it('passes the function the call and accepts a promise of a verdict', async () => {
    const decide = vi.fn(async ({ arguments: args }: { arguments: Readonly<Record<string, unknown>> }) =>
      args['table'] === 'audit' ? ApprovalVerdict.deny('The audit table is kept.') : true,
    );
    const { registry, handler } = registryWith(policyApprovalGate(decide));
    expect((await registry.call('drop_table', { table: 'tmp' }, admin())).success).toBe(true);
    expect((await registry.call('drop_table', { table: 'audit' }, admin())).error).toBe(
      "Call to 'drop_table' was not approved: The audit table is kept.",
    );
    expect(handler).toHaveBeenCalledTimes(1);
    expect(decide).toHaveBeenCalledWith(expect.objectContaining({ toolName: 'drop_table', principal: 'ana', channel: 'web' }));
  });

  it('denies by default with a generic reason', async () => {
    const { registry } = registryWith(policyApprovalGate(() => false));
    expect((await registry.call('drop_table', { table: 't' }, admin())).error).toBe(
      "Call to 'drop_table' was not approved: refused by the approval policy.",
    );
  });

  it.each([
    ['answers a string', () => 'yes'],
    ['answers 1', () => 1],
    [
      'throws',
      () => {
        throw new Error('policy down');
      },
    ],
    ['rejects', () => Promise.reject(new Error('policy down'))],
    ['resolves to undefined', () => Promise.resolve(undefined)],
  ])('denies, fail-closed, when the function %s', async (_label, decide) => {
    const { registry, handler } = registryWith(policyApprovalGate(decide as never));
    const result = await registry.call('drop_table', { table: 't' }, admin());
    expect(result.meta['code']).toBe('APPROVAL_DENIED');
    expect(result.error).toBe("Call to 'drop_table' refused: the approval gate failed (fail-closed).");
    expect(handler).not.toHaveBeenCalled();
  });

  it('denies a suspension, since it cannot tell a later decision', async () => {
    const { registry, handler } = registryWith(policyApprovalGate(() => ApprovalVerdict.suspend()));
    expect((await registry.call('drop_table', { table: 't' }, admin())).meta['code']).toBe('APPROVAL_DENIED');
    expect(handler).not.toHaveBeenCalled();
  });

  it('throws INVALID_ARGUMENT for a non-function or a blank reason', () => {
    expect(() => policyApprovalGate('yes' as never)).toThrow(MilpaError);
    expect(() => policyApprovalGate(() => true, { reason: ' ' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });
});
