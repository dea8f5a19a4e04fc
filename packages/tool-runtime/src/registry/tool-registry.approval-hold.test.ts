import { ApprovalVerdict, ToolContext, Type, defineTool, type ApprovalGate, type ApprovalStore } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { InMemoryApprovalStore } from '../approval/in-memory-approval-store.js';
import { ToolRegistry } from './tool-registry.js';
import type { ToolRegistryOptions } from './tool-registry-options.js';

const agent = () => ToolContext.mcp('req-hold', 'agent:7', ['notes:write']);

function suspendingGate(expiresIn: number): ApprovalGate {
  return {
    check: () => ApprovalVerdict.suspend({ expiresAt: new Date(Date.now() + expiresIn) }),
    getResolution: () => ({ status: 'pending' }),
  };
}

function setup(options: ToolRegistryOptions) {
  const logger = new RecordingLogger();
  const registry = new ToolRegistry({ logger, ...options });
  const deleteNote = vi.fn(() => 'deleted');
  registry.register(
    defineTool({
      name: 'delete_note',
      description: 'Delete a note',
      input: Type.Object({ id: Type.String() }),
      mutating: true,
      handler: deleteNote,
    }),
  );
  return { registry, logger, deleteNote };
}

/** Runs `body` with Date frozen, so "now" in the test and in the approve stage is one instant. */
async function atFixedNow(body: () => Promise<void>): Promise<void> {
  vi.useFakeTimers({ now: new Date('2026-12-07T12:00:00Z'), toFake: ['Date'] });
  try {
    await body();
  } finally {
    vi.useRealTimers();
  }
}

describe('ToolRegistry', () => {
  describe('approve stage: holding a call at the edges', () => {
    it('denies, fail-closed, when the gate suspends with an expiry of this very moment, and logs why', async () => {
      await atFixedNow(async () => {
        const { registry, deleteNote, logger } = setup({ approvalGate: suspendingGate(0) });
        const result = await registry.call('delete_note', { id: 'n1' }, agent());
        expect(result.meta['code']).toBe('APPROVAL_DENIED');
        expect(result.error).toBe("Call to 'delete_note' refused: the approval gate failed (fail-closed).");
        expect(deleteNote).not.toHaveBeenCalled();
        expect(logger.messages('error')).toEqual([
          "[ToolRegistry] the approval gate failed for 'delete_note': the gate suspended the call with an expiry in the past; " +
            'the call is denied (fail-closed)',
        ]);
      });
    });

    it('holds the call when the gate suspends with an expiry one millisecond ahead', async () => {
      await atFixedNow(async () => {
        const { registry } = setup({ approvalGate: suspendingGate(1) });
        expect((await registry.call('delete_note', { id: 'n1' }, agent())).meta['code']).toBe('APPROVAL_PENDING');
      });
    });

    it('logs that the store did not hold the call when open answers false', async () => {
      const approvalStore: ApprovalStore = Object.assign(new InMemoryApprovalStore(), { open: () => false });
      const { registry, logger, deleteNote } = setup({ approvalGate: suspendingGate(60_000), approvalStore });
      const result = await registry.call('delete_note', { id: 'n1' }, agent());
      expect(result.meta['code']).toBe('APPROVAL_DENIED');
      expect(deleteNote).not.toHaveBeenCalled();
      expect(logger.messages('error')).toEqual([
        "[ToolRegistry] the approval store failed for 'delete_note': the store did not hold the call; the call is denied (fail-closed)",
      ]);
    });
  });
});
