import { ToolContext, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../support/recording-logger.js';
import { Redactor } from '../../src/audit/redactor.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';

// Found while sizing test/properties/call-hostile-input.test.ts: arguments that reuse one object
// under two keys, n levels deep (n + 1 objects in memory), made the audit copy exponential — 2^n
// nodes: at n = 20 a 40 MB log line, at n = 30 a call() that never settles.
function sharedDiamonds(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 'end' };
  for (let level = 0; level < levels; level += 1) value = { left: value, right: value };
  return value;
}

describe('Redactor', () => {
  describe('redact (regression: shared references)', () => {
    it('returns a bounded copy when one object is reached through exponentially many paths', () => {
      const copy = new Redactor().redact(sharedDiamonds(20));
      const json = JSON.stringify(copy);
      expect(json.length).toBeLessThan(2_000_000);
      expect(json).toContain('[Truncated]');
    });

    it('still copies an object that appears twice in small arguments', () => {
      const shared = { city: 'Oaxaca' };
      expect(new Redactor().redact({ home: shared, work: shared })).toEqual({ home: { city: 'Oaxaca' }, work: { city: 'Oaxaca' } });
    });
  });
});

describe('ToolRegistry', () => {
  describe('call (regression: shared references)', () => {
    it('settles and audits a bounded line when the arguments share one object along every path', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
      registry.register(defineTool({ name: 'store', description: 'Stores a tree', handler: () => 'stored' }));
      const result = await registry.call('store', sharedDiamonds(20), ToolContext.cli());
      expect(result.success).toBe(true);
      const line = logger.messages('info').find((message) => message.includes('| store |'));
      expect(line).toBeDefined();
      expect(line!.length).toBeLessThan(2_000_000);
    }, 30_000);
  });
});
