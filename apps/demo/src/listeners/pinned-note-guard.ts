import { InterceptionSlot, ListenerPriority, ToolEvents, ToolExecutingEvent, type EventDispatcher } from '@milpa/core';
import type { NotesService } from '../plugin/notes-service.js';

/**
 * A veto: a `tool.executing` listener that stops `delete_note` for a pinned note. The call has
 * passed every gate (the caller may delete notes), but this listener knows something the gates do
 * not, and `slot.stop()` makes the registry return a blocked result without running the handler.
 *
 * @example
 * const guard = new PinnedNoteGuard(notes).attach(dispatcher);
 * await registry.call('delete_note', { id: 1 }, ToolContext.cli()); // blocked: 'Tool execution vetoed by an event listener'
 * guard.vetoes; // 1
 */
export class PinnedNoteGuard {
  readonly #notes: NotesService;
  #vetoes = 0;

  /** Guards the pinned notes of `notes`. */
  constructor(notes: NotesService) {
    this.#notes = notes;
  }

  /** How many calls this guard vetoed. */
  get vetoes(): number {
    return this.#vetoes;
  }

  /** Subscribes the guard to `dispatcher` and returns it. */
  attach(dispatcher: EventDispatcher): this {
    // A security veto runs before everything else, the cache included.
    dispatcher.subscribe(
      ToolEvents.EXECUTING,
      (_name, { event, slot }) => {
        if (!(event instanceof ToolExecutingEvent) || !InterceptionSlot.isInstance(slot)) return;
        if (event.name === 'delete_note' && this.#notes.isPinned(event.args['id'])) {
          this.#vetoes += 1;
          slot.stop();
        }
      },
      ListenerPriority.CRITICAL,
    );
    return this;
  }
}
