import { execFileSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PACKAGES = ['core', 'events', 'tool-runtime', 'mcp'] as const;

/** A copy of Milpa's packages as committed at one ref. */
export interface MilpaSnapshot {
  /** The directory holding `packages/<name>/src`. */
  readonly root: string;
  /** The short commit hash. */
  readonly commit: string;
}

/**
 * Extracts the sources of `@milpa/core`, `events`, `tool-runtime` and `mcp` as committed at `ref`
 * into a temporary directory. Each package's `node_modules` links to the working tree's (its
 * third-party dependencies); `@milpa/*` imports are sent to the snapshot by
 * `milpa-snapshot-register.mjs` in the server process. Lets the benchmark measure a commit while
 * the working tree of those packages is being edited.
 */
export function snapshotMilpaPackages(ref: string): MilpaSnapshot {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], { cwd: REPOSITORY_ROOT, encoding: 'utf8' }).trim();
  const root = mkdtempSync(join(tmpdir(), `milpa-snapshot-${commit}-`));
  const paths = PACKAGES.flatMap((name) => [`packages/${name}/src`, `packages/${name}/package.json`]);
  const archive = execFileSync('git', ['archive', '--format=tar', ref, ...paths], { cwd: REPOSITORY_ROOT, maxBuffer: 256 * 1024 * 1024 });
  execFileSync('tar', ['-x', '-C', root], { input: archive });
  for (const name of PACKAGES)
    symlinkSync(join(REPOSITORY_ROOT, 'packages', name, 'node_modules'), join(root, 'packages', name, 'node_modules'), 'dir');
  return { root, commit };
}
