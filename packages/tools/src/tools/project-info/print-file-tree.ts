import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isSkippedDirectory, sensitivePathReason } from '../../sandbox/sensitive-paths.js';
import type { Workspace } from '../../sandbox/workspace.js';

/**
 * Folders of build output, caches and stored data whose contents the tree does not list (besides
 * `SKIPPED_DIRECTORIES`): they are large, generated, and rarely what a task is about.
 */
export const TREE_SKIPPED_DIRECTORIES: readonly string[] = Object.freeze([
  'dist',
  'build',
  'out',
  '.output',
  'storage',
  'cache',
  'tmp',
  'temp',
  'logs',
  '.parcel-cache',
  '.svelte-kit',
  '.astro',
  '.vercel',
  '.netlify',
  '.serverless',
  '.angular',
  '.expo',
  '.docusaurus',
  '.gradle',
  '.terraform',
  '.venv',
  'venv',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
]);

/** What {@link printFileTree} printed. */
export interface PrintedFileTree {
  /** One line per entry, indented two spaces per level; folders end in `/`. */
  readonly text: string;
  /** How many entries were printed. */
  readonly entries: number;
  /** True when the tree stopped at `maxEntries`. */
  readonly truncated: boolean;
}

const TREE_SKIPPED_SET: ReadonlySet<string> = new Set(TREE_SKIPPED_DIRECTORIES);

/** Folders first, then files, each in name order. */
function byKindThenName(left: Dirent, right: Dirent): number {
  const leftFolder = left.isDirectory() ? 0 : 1;
  const rightFolder = right.isDirectory() ? 0 : 1;
  if (leftFolder !== rightFolder) return leftFolder - rightFolder;
  return left.name < right.name ? -1 : left.name > right.name ? 1 : 0;
}

/**
 * Prints the tree under `folder` down to `depth` levels (1: its own entries only), in a stable
 * order. Sensitive folders and secret files are left out entirely; dependency, VCS, build and
 * cache folders (`SKIPPED_DIRECTORIES`, {@link TREE_SKIPPED_DIRECTORIES}) are shown as
 * `name/ (not listed)` without their contents; symlinks are shown as `name (symlink)` and never
 * followed. At most `maxEntries` lines are printed.
 *
 * @example
 * const tree = await printFileTree(workspace, workspace.root, 2, 200);
 * // src/\n  index.ts\nnode_modules/ (not listed)\npackage.json
 */
export async function printFileTree(workspace: Workspace, folder: string, depth: number, maxEntries: number): Promise<PrintedFileTree> {
  const lines: string[] = [];
  let truncated = false;

  const walk = async (current: string, level: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(current, { withFileTypes: true });
    } catch {
      lines.push(`${'  '.repeat(level)}(unreadable)`);
      return;
    }
    entries.sort(byKindThenName);
    const indent = '  '.repeat(level);
    for (const entry of entries) {
      const absolute = join(current, entry.name);
      if (sensitivePathReason(workspace.relativeOf(absolute)) !== null) continue;
      if (lines.length >= maxEntries) {
        truncated = true;
        return;
      }
      if (entry.isSymbolicLink()) {
        lines.push(`${indent}${entry.name} (symlink)`);
      } else if (entry.isDirectory()) {
        if (isSkippedDirectory(entry.name) || TREE_SKIPPED_SET.has(entry.name.toLowerCase())) {
          lines.push(`${indent}${entry.name}/ (not listed)`);
          continue;
        }
        lines.push(`${indent}${entry.name}/`);
        if (level + 1 < depth) await walk(absolute, level + 1);
        if (truncated) return;
      } else {
        lines.push(`${indent}${entry.name}`);
      }
    }
  };

  await walk(folder, 0);
  if (truncated) lines.push(`… (stopped at ${maxEntries} entries)`);
  return { text: lines.join('\n'), entries: Math.min(lines.length, maxEntries), truncated };
}
