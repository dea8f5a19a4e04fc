import { describe, expect, it } from 'vitest';
import { ToolContext } from '../context/tool-context.js';
import { ToolFailedEvent } from './tool-failed-event.js';

describe('ToolFailedEvent', () => {
  it('carries name, context, args, what was thrown and the elapsed milliseconds', () => {
    const context = ToolContext.cli('req-1');
    const error = new Error('disk full');
    const event = new ToolFailedEvent('save_note', context, { text: 'x' }, error, 12);

    expect(event.name).toBe('save_note');
    expect(event.context).toBe(context);
    expect(event.args).toEqual({ text: 'x' });
    expect(event.error).toBe(error);
    expect(event.tookMs).toBe(12);
    expect(Object.isFrozen(event)).toBe(true);
  });

  it('keeps a thrown value that is not an Error', () => {
    expect(new ToolFailedEvent('x', ToolContext.cli(), {}, 'just a string', 0).error).toBe('just a string');
  });
});
