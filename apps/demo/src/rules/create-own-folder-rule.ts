import { InvocationDecision, type InvocationRule } from '@milpa/core';
import type { NotesService } from '../plugin/notes-service.js';
import { EVERY_FOLDER, callerFolder } from './caller-folder.js';
import { NOTE_TOOLS } from './note-target-resolver.js';

/**
 * `notes.own_folder`: a caller may read or delete only the notes in its own folder (see
 * {@link callerFolder}); any other note is refused with the reason `outside_folder`. The note is
 * the call's resolved target, so the rule never reads the arguments itself. An id with no note is
 * let through, for the tool to answer NOT_FOUND.
 *
 * @example
 * new ToolRegistry({ rules: [createOwnFolderRule(notes)], targetResolvers: [noteTargetResolver] });
 */
export function createOwnFolderRule(notes: NotesService): InvocationRule {
  return Object.freeze<InvocationRule>({
    identifier: 'notes.own_folder',
    tools: NOTE_TOOLS,
    evaluate: ({ target, context }) => {
      // The note resolver claims every call of these tools; without a note the rule cannot judge, so it refuses.
      if (target === null || target.kind !== 'note') return InvocationDecision.deny('no_target');
      const note = notes.find(Number(target.id));
      if (note === null) return InvocationDecision.allow();
      const folder = callerFolder(context.principal);
      return folder === EVERY_FOLDER || folder === note.folder ? InvocationDecision.allow() : InvocationDecision.deny('outside_folder');
    },
  });
}
