import { ToolResult, Type, tool } from '@milpa/core';

/** A note kept by the {@link NotesService}. */
export interface Note {
  /** Sequential id, from 1. */
  readonly id: number;
  /** One-line title. */
  readonly title: string;
  /** Free text; may be empty. */
  readonly body: string;
  /** Labels. */
  readonly tags: readonly string[];
  /** A pinned note is protected: the demo's veto listener refuses to let it be deleted. */
  readonly pinned: boolean;
  /** The folder the note is kept in; the `notes.own_folder` rule keeps callers to their own. */
  readonly folder: string;
}

/** The folder every note starts in unless said otherwise, and where new notes go: the shared plot. */
export const SHARED_FOLDER = 'field';

/** Notes per page when the caller does not say. */
const DEFAULT_PER_PAGE = 3;

/** The notes every demo registry starts with, so the tour's output is the same on every run. */
const STARTING_NOTES: readonly Omit<Note, 'id'>[] = [
  { title: 'Plant the milpa', body: 'Maize, beans and squash share one plot.', tags: ['field'], pinned: true, folder: SHARED_FOLDER },
  { title: 'Sow beans beside the maize', body: 'The stalks are their trellis.', tags: ['beans'], pinned: false, folder: SHARED_FOLDER },
  { title: 'Squash shades the soil', body: 'Broad leaves keep the weeds down.', tags: ['squash'], pinned: false, folder: SHARED_FOLDER },
  {
    title: 'Save seed from the best ears',
    body: 'Keep the seed dry until spring.',
    tags: ['maize', 'seed'],
    pinned: false,
    folder: 'granary',
  },
  { title: 'Harvest before the rains', body: 'Dry the ears in the sun.', tags: ['harvest'], pinned: false, folder: SHARED_FOLDER },
];

const listInput = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 1, description: 'Page number, from 1.' })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, description: 'Notes per page (at most 3; larger values are clamped).' })),
  tag: Type.Optional(Type.String({ minLength: 1, maxLength: 20, description: 'Only notes with this tag.' })),
});

const idInput = Type.Object({ id: Type.Integer({ minimum: 1, description: 'The note id.' }) });

const createInput = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 80, description: 'One-line title.' }),
    body: Type.Optional(Type.String({ maxLength: 500, description: 'Free text.' })),
    tags: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 20 }), { maxItems: 5, description: 'Up to five labels.' })),
  },
  { additionalProperties: false },
);

/**
 * An in-memory notes service whose methods are tools, declared with the `@tool` decorator:
 * `list_notes` (paginated, with clamps), `get_note`, `create_note` and the mutating `delete_note`.
 * Each instance starts with the same five notes (note 1 is pinned; note 4 is kept in the
 * `granary` folder, the others in the shared `field` folder).
 *
 * @example
 * for (const definition of readDeclaredTools(new NotesService())) registry.register(definition);
 */
export class NotesService {
  readonly #notes = new Map<number, Note>();
  #nextId = 1;

  /** Starts with the same five sample notes every time. */
  constructor() {
    for (const note of STARTING_NOTES) this.#add(note);
  }

  /** The number of notes held. */
  get size(): number {
    return this.#notes.size;
  }

  /** Every note held, in id order. */
  all(): readonly Note[] {
    return [...this.#notes.values()].sort((left, right) => left.id - right.id);
  }

  /** The note with `id`, or null. */
  find(id: number): Note | null {
    return this.#notes.get(id) ?? null;
  }

  /** True when note `id` exists and is pinned. */
  isPinned(id: unknown): boolean {
    return typeof id === 'number' && this.#notes.get(id)?.pinned === true;
  }

  /** `list_notes`: one page of notes (id, title, pinned), optionally only those with `tag`, as a paginated result. */
  @tool({
    name: 'list_notes',
    description: 'List the saved notes, a page at a time, optionally only those with a tag.',
    input: listInput,
    routing: {
      intents: ['list notes', 'browse notes'],
      domains: ['notes'],
      tags: ['list', 'browse', 'page', 'tag'],
      examples: ['What notes do I have?', 'Show me page 2 of my notes tagged beans'],
    },
    scopes: ['notes:read'],
    // Clamps coerce before validation: per_page 50 becomes 3 instead of an error.
    clamps: { page: [1, 1000], per_page: [1, DEFAULT_PER_PAGE] },
  })
  listNotes({ page = 1, per_page: perPage = DEFAULT_PER_PAGE, tag }: { page?: number; per_page?: number; tag?: string }): ToolResult {
    const all = [...this.#notes.values()].filter((note) => tag === undefined || note.tags.includes(tag));
    const items = all.slice((page - 1) * perPage, page * perPage).map(({ id, title, pinned }) => ({ id, title, pinned }));
    return ToolResult.paginated(items, page, all.length, perPage, 'Notes');
  }

  /** `get_note`: the note as a detail, or NOT_FOUND. */
  @tool({
    name: 'get_note',
    description: 'Show one note by id.',
    input: idInput,
    routing: {
      intents: ['read a note', 'open a note'],
      domains: ['notes'],
      tags: ['read', 'show', 'open'],
      examples: ['Show me note 4', 'What does the note about squash say?'],
    },
    scopes: ['notes:read'],
  })
  getNote({ id }: { id: number }): ToolResult {
    const note = this.#notes.get(id);
    if (note === undefined) return ToolResult.failure('NOT_FOUND', `No note with id ${id}.`, { field: 'id' });
    return ToolResult.detail(note, 'Note', note.title, ['delete_note']);
  }

  /** `create_note`: stores an unpinned note under the next id, in the shared folder. */
  @tool({
    name: 'create_note',
    description: 'Save a new note.',
    input: createInput,
    routing: {
      intents: ['save a note', 'write down', 'remember'],
      domains: ['notes'],
      tags: ['create', 'add', 'write', 'jot'],
      examples: ['Note that the beans need water', 'Remember to rotate the plot'],
    },
    scopes: ['notes:write'],
    mutating: true,
  })
  createNote({ title, body = '', tags = [] }: { title: string; body?: string; tags?: string[] }): ToolResult {
    const note = this.#add({ title, body, tags, pinned: false, folder: SHARED_FOLDER });
    return ToolResult.detail(note, 'Note', `Note #${note.id} created`);
  }

  /** `delete_note`: removes the note, or NOT_FOUND (the pinned-note veto lives in a listener). */
  @tool({
    name: 'delete_note',
    description: 'Delete a note by id (pinned notes are protected).',
    input: idInput,
    routing: {
      intents: ['delete a note', 'remove a note'],
      domains: ['notes'],
      tags: ['delete', 'remove', 'erase', 'forget'],
      examples: ['Delete note 3', 'Remove the note about squash'],
    },
    scopes: ['notes:write'],
    mutating: true,
  })
  deleteNote({ id }: { id: number }): ToolResult {
    const note = this.#notes.get(id);
    if (note === undefined) return ToolResult.failure('NOT_FOUND', `No note with id ${id}.`, { field: 'id' });
    this.#notes.delete(id);
    return ToolResult.success({ deleted: id, title: note.title }, `Note #${id} deleted`);
  }

  #add(fields: Omit<Note, 'id'>): Note {
    const note: Note = Object.freeze({ ...fields, id: this.#nextId, tags: Object.freeze([...fields.tags]) });
    this.#nextId += 1;
    this.#notes.set(note.id, note);
    return note;
  }
}
