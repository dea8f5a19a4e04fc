#!/usr/bin/env node
// Fails when text we ship refers to documents users do not have. Scans the published type
// declarations (packages/*/dist/**/*.d.ts, whose JSDoc users read in their editor) and the READMEs
// (the root one and packages/*/README.md) for:
//   - the whole words `seed`, `seeds`, `seeded`, in any case;
//   - the word `DESIGN` in capitals (as in "DESIGN decision 3"; "design" in prose is fine);
//   - the character `§` (as in "§3 E50").
// Prints `file:line: text` for each hit and exits 1; otherwise prints one OK line and exits 0.
// Run it after the build: with no declarations to scan it fails rather than pass on nothing.
//
//   node scripts/check-shipped-text.mjs [root]     (root defaults to this repository)
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The words and characters that give internal documents away. A word's edges are anything but a
 * letter or a digit, so `SEED_CHANNEL_POLICIES` and `seed-examples` count while `seedling` and
 * `linseed` do not.
 */
export const JARGON = Object.freeze([
  { label: 'seed', pattern: /(?<![\p{L}\p{N}])seed(?:s|ed)?(?![\p{L}\p{N}])/giu },
  { label: 'DESIGN', pattern: /(?<![\p{L}\p{N}])DESIGN(?![\p{L}\p{N}])/gu },
  { label: '§', pattern: /§/gu },
]);

const DECLARATION = /\.d\.(?:ts|mts|cts)$/;

/**
 * Every hit of {@link JARGON} in `text`, in reading order, with its 1-based line and column.
 *
 * @param {string} text
 * @returns {{ line: number, column: number, match: string, text: string }[]}
 */
export function findJargon(text) {
  const hits = [];
  text.split(/\r?\n/).forEach((lineText, index) => {
    for (const { pattern } of JARGON) {
      for (const found of lineText.matchAll(pattern)) {
        hits.push({ line: index + 1, column: (found.index ?? 0) + 1, match: found[0], text: lineText.trim() });
      }
    }
  });
  return hits.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** The entries of a directory, or none when it does not exist. */
function entriesOf(dir) {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Declaration files under `dir`, depth first, in name order; `node_modules` is never entered. */
function declarationsUnder(dir) {
  const found = [];
  for (const entry of entriesOf(dir).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...declarationsUnder(path));
    else if (entry.isFile() && DECLARATION.test(entry.name)) found.push(path);
  }
  return found;
}

/**
 * The shipped text files of the repository at `root`: the root README.md, then for each
 * `packages/*` (in name order) its README.md and every declaration file under its `dist/`.
 *
 * @param {string} root
 * @returns {{ readmes: string[], declarations: string[] }} absolute paths
 */
export function listShippedFiles(root) {
  const readmes = [];
  const declarations = [];
  if (isFile(join(root, 'README.md'))) readmes.push(join(root, 'README.md'));
  const packages = entriesOf(join(root, 'packages'))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  for (const name of packages) {
    const dir = join(root, 'packages', name);
    if (isFile(join(dir, 'README.md'))) readmes.push(join(dir, 'README.md'));
    declarations.push(...declarationsUnder(join(dir, 'dist')));
  }
  return { readmes, declarations };
}

/**
 * Scans the shipped text of the repository at `root` for internal jargon.
 *
 * @param {string} root
 * @returns {{
 *   files: string[],
 *   declarationCount: number,
 *   hits: { file: string, line: number, column: number, match: string, text: string }[],
 * }}
 *   `files` and each hit's `file` are relative to `root`, with `/` separators.
 *
 * @example
 * const { hits } = scanShippedText(process.cwd());
 * for (const hit of hits) console.log(`${hit.file}:${hit.line}: ${hit.text}`);
 */
export function scanShippedText(root) {
  const { readmes, declarations } = listShippedFiles(root);
  const files = [...readmes, ...declarations].map((path) => relative(root, path).split(sep).join('/'));
  const hits = [];
  for (const file of files) {
    for (const hit of findJargon(readFileSync(join(root, file), 'utf8'))) hits.push({ file, ...hit });
  }
  return { files, declarationCount: declarations.length, hits };
}

/**
 * Runs the check on `root` and reports on the given writers.
 *
 * @param {string} root
 * @param {{ out: (line: string) => void, err: (line: string) => void }} io
 * @returns {0 | 1} the exit status
 */
export function runCheck(root, io) {
  const { files, declarationCount, hits } = scanShippedText(root);
  if (declarationCount === 0) {
    io.err('check-shipped-text: no packages/*/dist/**/*.d.ts to scan; build the packages first (pnpm build).');
    return 1;
  }
  if (hits.length > 0) {
    for (const hit of hits) io.err(`${hit.file}:${hit.line}: ${hit.text}`);
    io.err(
      `check-shipped-text: ${hits.length} mention(s) of internal documents ("seed", "DESIGN", "§") in shipped text; ` +
        'say what the behaviour is instead.',
    );
    return 1;
  }
  io.out(`check-shipped-text: OK, no internal jargon in ${files.length} shipped files (${declarationCount} declaration files).`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  process.exitCode = runCheck(root, { out: (line) => console.log(line), err: (line) => console.error(line) });
}
