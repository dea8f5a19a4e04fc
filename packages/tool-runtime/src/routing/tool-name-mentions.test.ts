import { describe, expect, it } from 'vitest';
import { ToolNameMentions } from './tool-name-mentions.js';

function names(message: string, toolName: string): boolean {
  return ToolNameMentions.fromMessage(message).names(toolName);
}

describe('ToolNameMentions', () => {
  describe('names', () => {
    it('returns true when the message writes the tool name', () => {
      expect(names('please run shell_exec with ls', 'shell_exec')).toBe(true);
      expect(names('call `notes.delete-v2` for note 4.', 'notes.delete-v2')).toBe(true);
    });

    it('returns true for a class-style name, with or without the Tool suffix', () => {
      expect(names('use ShellTool to list files', 'shell_exec')).toBe(true);
      expect(names('DeleteNoteTool, on note 4', 'delete_note')).toBe(true);
      expect(names('run DeleteNote on note 4', 'delete_note')).toBe(true);
      expect(names('run deleteNote on note 4', 'delete_note')).toBe(true);
    });

    it('returns true for a partial mention contained in the name', () => {
      expect(names('use delete_note', 'delete_notes')).toBe(true);
      expect(names('the notes.delete tool', 'notes.delete-v2')).toBe(true);
    });

    it('returns true for a mention that contains the whole name as segments', () => {
      expect(names('use shell_exec_v2', 'shell_exec')).toBe(true);
      expect(names('SearchNotesTool please', 'search')).toBe(true);
    });

    it('returns false for a name found only inside a word of a longer identifier', () => {
      expect(names('a false_positive', 'ls')).toBe(false);
      expect(names('see delete_notebook', 'note')).toBe(false);
    });

    it('compares camelCase, PascalCase, dots, dashes and underscores alike, without regard to case', () => {
      expect(names('use delete-note', 'deleteNote')).toBe(true);
      expect(names('use DELETE_NOTE', 'delete.note')).toBe(true);
      expect(names('use DeleteNote', 'delete-note')).toBe(true);
    });

    it('returns true for a plain word that is the whole name', () => {
      expect(names('Ping the server', 'ping')).toBe(true);
      expect(names('then ping.', 'Ping')).toBe(true);
    });

    it('returns true for a plain word that is the first part of the name', () => {
      expect(names('open a shell and list the files', 'shell_exec')).toBe(true);
      expect(names('Shell: what is running?', 'ShellExec')).toBe(true);
      expect(names('delete my note', 'delete_note')).toBe(true);
    });

    it('returns false for a plain word that is a later part of the name, a piece of a part, short or a stop word', () => {
      expect(names('show notes', 'list_notes')).toBe(false);
      expect(names('my note', 'delete_note')).toBe(false);
      expect(names('she said', 'shell_exec')).toBe(false);
      expect(names('go on', 'go_run')).toBe(false);
      expect(names('then stop', 'then_stop_all')).toBe(false);
    });

    it('ignores abbreviations that look like dotted names', () => {
      expect(names('e.g. the U.S. list', 'use_g_list')).toBe(false);
      expect(names('i.e. anything', 'tie_exec')).toBe(false);
    });

    it('returns false for an empty message or an empty name', () => {
      expect(names('', 'shell_exec')).toBe(false);
      expect(names('shell_exec', '')).toBe(false);
    });
  });
});
