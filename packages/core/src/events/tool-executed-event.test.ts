import { describe, expect, it } from 'vitest';
import { ToolContext } from '../context/tool-context.js';
import { ToolResult } from '../result/tool-result.js';
import { ToolExecutedEvent } from './tool-executed-event.js';

describe('ToolExecutedEvent', () => {
  it('carries name, context, args and result, and is not cache-served by default', () => {
    const context = ToolContext.cli('req-1');
    const result = ToolResult.success({ notes: [] });
    const event = new ToolExecutedEvent('list_notes', context, { page: 1 }, result);

    expect(event.name).toBe('list_notes');
    expect(event.context).toBe(context);
    expect(event.args).toEqual({ page: 1 });
    expect(event.result).toBe(result);
    expect(event.cacheServed).toBe(false);
    expect(Object.isFrozen(event)).toBe(true);
  });

  it('marks a result a listener served', () => {
    const event = new ToolExecutedEvent('list_notes', ToolContext.cli(), {}, ToolResult.success(), true);

    expect(event.cacheServed).toBe(true);
  });
});
