import { describe, expect, it, vi } from 'vitest';
import { notesSetup } from '../../test/support/notes-setup.js';
import { callNeedsApproval } from './call-needs-approval.js';

function definitionOf(setup: ReturnType<typeof notesSetup>, name: string) {
  const definition = setup.registry.getDefinition(name);
  if (definition === null) throw new Error(`no ${name}`);
  return definition;
}

describe('callNeedsApproval', () => {
  it('answers false without building the registry plan when the call reads and asks for no confirmation', () => {
    const setup = notesSetup();
    const inspect = vi.spyOn(setup.registry, 'inspect');
    expect(callNeedsApproval(setup.registry, definitionOf(setup, 'list_notes'), {}, setup.context)).toBe(false);
    expect(callNeedsApproval(setup.registry, definitionOf(setup, 'edit_note'), { id: 'n1', action: 'rename' }, setup.context)).toBe(false);
    expect(inspect).not.toHaveBeenCalled();
  });

  it('asks the registry plan and answers true when a mutating call meets an approval gate', () => {
    const setup = notesSetup();
    const inspect = vi.spyOn(setup.registry, 'inspect');
    expect(callNeedsApproval(setup.registry, definitionOf(setup, 'edit_note'), { id: 'n1', action: 'delete' }, setup.context)).toBe(true);
    expect(inspect).toHaveBeenCalledWith('edit_note', setup.context);
  });

  it('answers false for a mutating call the registry meets with neither a gate nor a confirmation', () => {
    const setup = notesSetup({ gate: null });
    expect(callNeedsApproval(setup.registry, definitionOf(setup, 'delete_note'), { id: 'n1' }, setup.context)).toBe(false);
  });

  it('answers true for a tool that asks for a confirmation, though it does not mutate', () => {
    const setup = notesSetup();
    expect(callNeedsApproval(setup.registry, definitionOf(setup, 'publish_note'), { id: 'n1' }, setup.context)).toBe(true);
  });
});
