import { SHARED_FOLDER } from '../plugin/notes-service.js';

/** What {@link callerFolder} answers for a caller who may open every folder. */
export const EVERY_FOLDER = '*';

/**
 * The demo's fixed folder assignments: the trusted local operators (`cli` on the terminal, `stdio`
 * behind `pnpm demo mcp`) may open every folder, `agent:storekeeper` works in `granary`. Every
 * other named caller works in the shared `field` folder; an anonymous caller has no folder at all.
 */
const FOLDER_OF_PRINCIPAL: Readonly<Record<string, string>> = Object.freeze({
  cli: EVERY_FOLDER,
  stdio: EVERY_FOLDER,
  'agent:storekeeper': 'granary',
});

/**
 * The folder a caller may use notes in: {@link EVERY_FOLDER} for the local operators, the folder
 * assigned to the principal, else the shared `field` folder; null for an anonymous caller.
 *
 * @example
 * callerFolder('agent:pruner'); // 'field'
 * callerFolder('cli');          // '*'
 */
export function callerFolder(principal: string | null): string | null {
  if (principal === null || principal === '') return null;
  return Object.hasOwn(FOLDER_OF_PRINCIPAL, principal) ? (FOLDER_OF_PRINCIPAL[principal] ?? null) : SHARED_FOLDER;
}
