#!/usr/bin/env node
// Fails when a source line is longer than 140 characters. Biome formats code at that width
// (`lineWidth` in biome.jsonc) but leaves long string literals, template literals and comments
// alone; this check covers them. Scans every git-tracked `.ts`, `.tsx`, `.js`, `.mjs` and `.cjs`
// file (untracked files are not scanned) and counts characters, not bytes.
// One exception: a line whose only content over the limit is one unbreakable URL (`http://…` or
// `https://…`, up to the next space or quote) passes, because the line without that URL fits.
// Prints `file:line: length` for each long line and exits 1; otherwise prints nothing and exits 0.
//
//   node scripts/check-line-length.mjs [root]     (root defaults to this repository)
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The longest line allowed, in characters. */
export const LINE_LIMIT = 140;

/** The file names the check reads, as git pathspecs. */
export const SOURCE_PATTERNS = Object.freeze(['*.ts', '*.tsx', '*.js', '*.mjs', '*.cjs']);

const URL_PATTERN = /https?:\/\/[^\s'"`<>]+/g;

/** The length of `text` in characters (code points), so `—` or `⚠` counts as one. */
function charactersIn(text) {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * Whether a line over the limit is allowed: it is when removing one URL from it leaves a line
 * that fits, so the URL is the only thing that does not.
 *
 * @param {string} lineText
 * @param {number} limit
 * @returns {boolean}
 */
function isLongOnlyForUrl(lineText, limit) {
  const length = charactersIn(lineText);
  for (const found of lineText.matchAll(URL_PATTERN)) {
    if (length - charactersIn(found[0]) <= limit) return true;
  }
  return false;
}

/**
 * Every line of `text` longer than `limit` characters, with its 1-based number and its length;
 * a line over the limit only because of one URL is left out.
 *
 * @param {string} text
 * @param {number} [limit]
 * @returns {{ line: number, length: number }[]}
 */
export function findLongLines(text, limit = LINE_LIMIT) {
  const long = [];
  text.split(/\r?\n/).forEach((lineText, index) => {
    const length = charactersIn(lineText);
    if (length > limit && !isLongOnlyForUrl(lineText, limit)) long.push({ line: index + 1, length });
  });
  return long;
}

/**
 * The git-tracked source files of the repository at `root`, relative to it, in git's order.
 * Throws when `root` is not inside a git work tree.
 *
 * @param {string} root
 * @returns {string[]}
 */
export function listSourceFiles(root) {
  const listed = spawnSync('git', ['ls-files', '-z', '--', ...SOURCE_PATTERNS], { cwd: root, encoding: 'utf8' });
  if (listed.error !== undefined) throw listed.error;
  if (listed.status !== 0) throw new Error(`git ls-files failed in ${root}: ${listed.stderr.trim()}`);
  return listed.stdout.split('\0').filter((file) => file !== '');
}

/**
 * Scans the git-tracked source files of the repository at `root` for lines over the limit.
 * A tracked file deleted from the work tree is skipped.
 *
 * @param {string} root
 * @param {number} [limit]
 * @returns {{ files: string[], hits: { file: string, line: number, length: number }[] }}
 *   `files` and each hit's `file` are relative to `root`, with `/` separators.
 *
 * @example
 * const { hits } = scanLineLengths(process.cwd());
 * for (const hit of hits) console.log(`${hit.file}:${hit.line}: ${hit.length}`);
 */
export function scanLineLengths(root, limit = LINE_LIMIT) {
  const files = listSourceFiles(root);
  const hits = [];
  for (const file of files) {
    let text;
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch (error) {
      if (error?.code === 'ENOENT') continue;
      throw error;
    }
    for (const hit of findLongLines(text, limit)) hits.push({ file, ...hit });
  }
  return { files, hits };
}

/**
 * Runs the check on `root` and reports on the given writer: nothing when every line fits.
 *
 * @param {string} root
 * @param {{ err: (line: string) => void }} io
 * @returns {0 | 1} the exit status
 */
export function runCheck(root, io) {
  const { hits } = scanLineLengths(root);
  if (hits.length === 0) return 0;
  for (const hit of hits) io.err(`${hit.file}:${hit.line}: ${hit.length}`);
  io.err(
    `check-line-length: ${hits.length} line(s) over ${LINE_LIMIT} characters; ` +
      'wrap comments, and split long strings into concatenated parts.',
  );
  return 1;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const root = process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url));
  process.exitCode = runCheck(root, { err: (line) => console.error(line) });
}
