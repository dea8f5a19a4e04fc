import { ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';

const reader = (id: string): ToolContext => ToolContext.mcp(id, 'agent:reader', ['almanac:read']);

describe('LookupCache', () => {
  describe('tool.executing', () => {
    it('answers a repeat lookup from memory, so the almanac is consulted once', async () => {
      const { registry, almanac, cache } = await createDemoRuntime();
      const first = await registry.call('lookup_crop', { name: 'beans' }, reader('r1'));
      const second = await registry.call('lookup_crop', { name: 'beans' }, reader('r2'));
      expect(almanac.lookups).toBe(1);
      expect(cache.hits).toBe(1);
      expect(second.data).toEqual(first.data);
      expect(second.message).toBe('Almanac entry for beans (served from cache)');
    });

    it('describes the call it answered in meta, not the call that filled the cache', async () => {
      const { registry } = await createDemoRuntime();
      await registry.call('lookup_crop', { name: 'beans' }, reader('r1'));
      const second = await registry.call('lookup_crop', { name: 'beans' }, ToolContext.mcp('r2', 'agent:other', ['almanac:read']));
      expect(second.meta).toMatchObject({ request_id: 'r2', principal: 'agent:other', channel: 'mcp', cache_hit: true });
    });

    it('marks the cache-served call in its audit record', async () => {
      const { registry, logger } = await createDemoRuntime();
      await registry.call('lookup_crop', { name: 'beans' }, reader('r1'));
      await registry.call('lookup_crop', { name: 'beans' }, reader('r2'));
      const records = logger.entries().map((entry) => entry.context['audit'] as { request_id: string; cache_served: boolean });
      expect(records.map((record) => [record.request_id, record.cache_served])).toEqual([
        ['r1', false],
        ['r2', true],
      ]);
    });

    it('is never invoked for a denied caller, so a cached answer cannot stand in for a refusal', async () => {
      const { registry, almanac, cache } = await createDemoRuntime();
      await registry.call('lookup_crop', { name: 'beans' }, reader('r1'));
      const before = cache.invocations;
      const denied = await registry.call('lookup_crop', { name: 'beans' }, ToolContext.mcp('r2', 'agent:guest', ['notes:read']));
      const anonymous = await registry.call('lookup_crop', { name: 'beans' }, ToolContext.mcp('r3', null, []));
      expect(denied.getCode()).toBe('FORBIDDEN');
      expect(anonymous.getCode()).toBe('FORBIDDEN');
      expect(denied.data).toBeNull();
      expect(cache.invocations).toBe(before);
      expect(cache.hits).toBe(0);
      expect(almanac.lookups).toBe(1);
    });

    it('does not cache a failed lookup', async () => {
      const { registry, almanac, cache } = await createDemoRuntime();
      await registry.call('lookup_crop', { name: 'rice' }, reader('r1'));
      const again = await registry.call('lookup_crop', { name: 'rice' }, reader('r2'));
      expect(again.getCode()).toBe('NOT_FOUND');
      expect(almanac.lookups).toBe(2);
      expect(cache.hits).toBe(0);
    });

    it('leaves tools it does not cache alone', async () => {
      const { registry, cache } = await createDemoRuntime();
      await registry.call('list_notes', {}, ToolContext.cli('r1'));
      await registry.call('list_notes', {}, ToolContext.cli('r2'));
      expect(cache.invocations).toBe(0);
    });
  });
});
