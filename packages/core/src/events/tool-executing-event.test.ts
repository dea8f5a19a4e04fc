import { describe, expect, it } from 'vitest';
import { ToolContext } from '../context/tool-context.js';
import { ToolExecutingEvent } from './tool-executing-event.js';

describe('ToolExecutingEvent', () => {
  it('carries the tool name, context and final args, and is frozen', () => {
    const context = ToolContext.cli('req-1');
    const args = { page: 2 };
    const event = new ToolExecutingEvent('list_notes', context, args);

    expect(event.name).toBe('list_notes');
    expect(event.context).toBe(context);
    expect(event.args).toBe(args);
    expect(Object.isFrozen(event)).toBe(true);
  });
});
