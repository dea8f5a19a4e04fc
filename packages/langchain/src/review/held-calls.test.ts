import { ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { HeldCalls, type PausedCall } from './held-calls.js';

const paused = (approvalId: string): PausedCall => ({ kind: 'approval', approvalId, expiresAt: null, description: 'Approve?' });
const caller = new ToolContext({ principal: 'agent:a', channel: 'web', runId: 'run_1' });

describe('HeldCalls', () => {
  it('keys a call by caller, run, tool call id, tool and arguments (key order aside)', () => {
    const key = HeldCalls.keyOf(caller, 'call_1', 'delete_note', { id: 'n1', hard: true });

    expect(HeldCalls.keyOf(caller, 'call_1', 'delete_note', { hard: true, id: 'n1' })).toBe(key);
    expect(
      [
        HeldCalls.keyOf(caller.with({ principal: 'agent:b' }), 'call_1', 'delete_note', { id: 'n1', hard: true }),
        HeldCalls.keyOf(caller.with({ channel: 'mcp' }), 'call_1', 'delete_note', { id: 'n1', hard: true }),
        HeldCalls.keyOf(caller.with({ runId: 'run_2' }), 'call_1', 'delete_note', { id: 'n1', hard: true }),
        HeldCalls.keyOf(caller, 'call_2', 'delete_note', { id: 'n1', hard: true }),
        HeldCalls.keyOf(caller, 'call_1', 'archive_note', { id: 'n1', hard: true }),
        HeldCalls.keyOf(caller, 'call_1', 'delete_note', { id: 'n1', hard: false }),
      ].filter((other) => other === key),
    ).toEqual([]);
  });

  it('remembers a paused call until it is deleted', () => {
    const held = new HeldCalls();
    held.set('k', paused('a1'));

    expect(held.get('k')).toEqual(paused('a1'));
    held.delete('k');
    expect(held.get('k')).toBeUndefined();
  });

  it('never remembers a call whose arguments JSON cannot hold', () => {
    const held = new HeldCalls();
    const key = HeldCalls.keyOf(caller, 'call_1', 'delete_note', { big: 1n });
    held.set(key, paused('a1'));

    expect(key).toBeNull();
    expect(held.get(key)).toBeUndefined();
  });

  it('forgets the oldest call beyond 10,000', () => {
    const held = new HeldCalls();
    for (let index = 0; index <= 10_000; index += 1) held.set(`k${index}`, paused(`a${index}`));

    expect(held.get('k0')).toBeUndefined();
    expect(held.get('k1')).toEqual(paused('a1'));
    expect(held.get('k10000')).toEqual(paused('a10000'));
  });
});
