// How the tour words what it shows: counts, indented blocks, the notes held.
import type { DemoRuntime } from '../runtime/create-demo-runtime.js';

/** The notes held, as `#1 Plant the milpa, #4 …`. */
export function describeNotes(notes: DemoRuntime['notes']): string {
  return notes
    .all()
    .map((note) => `#${note.id} ${note.title}`)
    .join(', ');
}

/** A count as the transcript words it: `once`, `twice`, `3 times`. */
export function times(count: number): string {
  return count === 1 ? 'once' : count === 2 ? 'twice' : `${count} times`;
}

/** `text` indented by two spaces, blank lines left blank. */
export function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n');
}
