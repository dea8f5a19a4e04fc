import { describe, expect, it } from 'vitest';
import { ToolContext } from '../context/tool-context.js';
import { ToolDeniedEvent } from './tool-denied-event.js';
import { ToolInvocationDeniedEvent } from './tool-invocation-denied-event.js';

describe('ToolDeniedEvent', () => {
  it('is a frozen record of tool, caller, reason and message, with no arguments', () => {
    const event = new ToolDeniedEvent('delete_note', ToolContext.web('u'), 'missing_scope', 'Missing required scope');
    expect(event).toMatchObject({ name: 'delete_note', reason: 'missing_scope', message: 'Missing required scope' });
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.keys(event)).not.toContain('args');
  });
});

describe('ToolInvocationDeniedEvent', () => {
  it('is a frozen record of rule, reason and target, with no arguments', () => {
    const event = new ToolInvocationDeniedEvent('delete_note', ToolContext.web('u'), 'notes.limit', 'too_many_deletions', {
      kind: 'note',
      id: '4',
    });
    expect(event).toMatchObject({ rule: 'notes.limit', reason: 'too_many_deletions', target: { kind: 'note', id: '4' } });
    expect(Object.isFrozen(event)).toBe(true);
    expect(Object.keys(event).sort()).toEqual(['context', 'name', 'reason', 'rule', 'target']);
  });
});
