import { ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';

const worker = (id: string): ToolContext => ToolContext.mcp(id, 'agent:worker', ['reports:publish']);
const reviewer = (id: string): ToolContext => ToolContext.mcp(id, 'agent:reviewer', ['verification:resolve']);

async function openAndResolve(demo: Awaited<ReturnType<typeof createDemoRuntime>>, decision: 'grant' | 'reject', requestId = 'v1') {
  await demo.registry.call('request_verification', { subject: 'report:q3-harvest', request_id: requestId }, worker('a'));
  return demo.registry.call('resolve_verification', { request_id: requestId, decision, principal: 'agent:reviewer' }, reviewer('b'));
}

describe('ReportDesk', () => {
  describe('publish_report', () => {
    it('refuses to publish before a verification of report:{id} was granted', async () => {
      const demo = await createDemoRuntime();
      const result = await demo.registry.call('publish_report', { report_id: 'q3-harvest' }, worker('r1'));
      expect(result.getCode()).toBe('FORBIDDEN');
      expect(result.error).toContain("needs a granted verification of 'report:q3-harvest'");
      expect(demo.reports.find('q3-harvest')?.status).toBe('draft');
    });

    it('publishes after a reviewer granted the verification, naming the approver', async () => {
      const demo = await createDemoRuntime();
      expect((await openAndResolve(demo, 'grant')).success).toBe(true);
      const result = await demo.registry.call('publish_report', { report_id: 'q3-harvest' }, worker('r2'));
      expect(result.data).toEqual({ id: 'q3-harvest', title: 'Q3 harvest report', status: 'published', approved_by: 'agent:reviewer' });
    });

    it('stays unpublished when the verification was rejected', async () => {
      const demo = await createDemoRuntime();
      await openAndResolve(demo, 'reject');
      expect((await demo.registry.call('publish_report', { report_id: 'q3-harvest' }, worker('r2'))).getCode()).toBe('FORBIDDEN');
    });

    it('does not let the worker grant its own request: resolving needs the reviewer scope', async () => {
      const demo = await createDemoRuntime();
      await demo.registry.call('request_verification', { subject: 'report:q3-harvest', request_id: 'v1' }, worker('a'));
      const result = await demo.registry.call(
        'resolve_verification',
        { request_id: 'v1', decision: 'grant', principal: 'agent:worker' },
        worker('b'),
      );
      expect(result.error).toBe(
        "Missing required scope for tool 'resolve_verification'. Need one of: verification:resolve — context has: reports:publish.",
      );
      expect((await demo.registry.call('publish_report', { report_id: 'q3-harvest' }, worker('c'))).getCode()).toBe('FORBIDDEN');
    });

    it('uses a grant once: a second publication is a CONFLICT, and another report still needs its own grant', async () => {
      const demo = await createDemoRuntime();
      await openAndResolve(demo, 'grant');
      await demo.registry.call('publish_report', { report_id: 'q3-harvest' }, worker('r1'));
      expect((await demo.registry.call('publish_report', { report_id: 'q3-harvest' }, worker('r2'))).getCode()).toBe('CONFLICT');
      // Another worker, with a rate budget of its own (8 tokens, 2 per mutating call): the refusal is about the grant alone.
      const other = ToolContext.mcp('r3', 'agent:worker-2', ['reports:publish']);
      expect((await demo.registry.call('publish_report', { report_id: 'seed-bank' }, other)).getCode()).toBe('FORBIDDEN');
    });

    it('returns NOT_FOUND for an unknown report and rejects a malformed id before the handler', async () => {
      const demo = await createDemoRuntime();
      expect((await demo.registry.call('publish_report', { report_id: 'nope' }, worker('r1'))).getCode()).toBe('NOT_FOUND');
      expect((await demo.registry.call('publish_report', { report_id: '../etc' }, worker('r2'))).getCode()).toBe('VALIDATION_ERROR');
    });
  });
});
