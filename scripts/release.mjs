#!/usr/bin/env node
// `pnpm release`: version the packages from the pending changesets, build, check and publish.
//
//   pnpm release            dry run: does all of it in a temporary copy of this working tree
//                           (committed or not) and publishes with `--dry-run`; changes nothing here
//   pnpm release --publish  the real thing, in this working tree (also MILPA_RELEASE=publish)
//
// The real publish needs a clean working tree on main and an npm token, and runs where npm can
// attest provenance (a CI job with an OIDC identity, e.g. GitHub Actions with `id-token: write`):
// every package sets `publishConfig.provenance`, so npm refuses to publish without it. It commits the
// version bump, publishes every package whose version is not on npm yet, and tags the commit; push
// the commit and the tags afterwards.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const publish = process.argv.includes('--publish') || process.env['MILPA_RELEASE'] === 'publish';

/** Runs a command with inherited output; stops the release when it fails. */
function step(title, command, args, cwd) {
  process.stdout.write(`\n▸ ${title}\n`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    process.stderr.write(`\nRelease stopped: ${title} failed (exit ${result.status}).\n`);
    process.exit(result.status ?? 1);
  }
}

/** pnpm as this script was started with (`npx pnpm@…` need not leave pnpm on PATH). */
function pnpm(title, args, cwd) {
  const execPath = process.env['npm_execpath'];
  if (execPath !== undefined && /pnpm/.test(execPath)) step(title, process.execPath, [execPath, ...args], cwd);
  else step(title, 'pnpm', args, cwd);
}

function output(command, args, cwd) {
  return spawnSync(command, args, { cwd, encoding: 'utf8' }).stdout ?? '';
}

/** name → version of every published package (packages/*, not private) under `root`. */
function publishedVersions(root) {
  const versions = new Map();
  for (const name of readdirSync(join(root, 'packages'))) {
    const path = join(root, 'packages', name, 'package.json');
    if (!existsSync(path)) continue;
    const manifest = JSON.parse(readFileSync(path, 'utf8'));
    if (manifest.private !== true) versions.set(manifest.name, manifest.version);
  }
  return versions;
}

/** A copy of this working tree as git sees it (tracked and untracked files, less ignored ones). */
function copyWorkingTree() {
  const copy = mkdtempSync(join(tmpdir(), 'milpa-release-'));
  const files = output('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], ROOT).split('\0').filter(Boolean);
  for (const file of files) {
    const source = join(ROOT, file);
    if (!existsSync(source)) continue; // deleted but not yet committed
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(source, join(copy, file));
  }
  return copy;
}

function release(root) {
  const before = publishedVersions(root);
  pnpm('changeset version: apply the pending changesets', ['exec', 'changeset', 'version'], root);
  const after = publishedVersions(root);
  process.stdout.write('\nVersions:\n');
  for (const [name, version] of after) process.stdout.write(`  ${name}  ${before.get(name)} → ${version}\n`);
  if (publish) {
    step('commit the version bump', 'git', ['add', '-A'], root);
    step('commit the version bump', 'git', ['commit', '-m', `chore: release ${[...new Set(after.values())].join(', ')}`], root);
  }
  pnpm('build the published packages', ['exec', 'turbo', 'run', 'build', '--filter=./packages/*', '--output-logs=errors-only'], root);
  step(
    'check the tarballs (publint, attw, contents, consumer types)',
    process.execPath,
    [join(root, 'scripts', 'check-release.mjs')],
    root,
  );
  if (publish) {
    pnpm('publish to npm with provenance', ['publish', '--recursive', '--access', 'public'], root);
    pnpm('tag the release', ['exec', 'changeset', 'tag'], root);
    process.stdout.write('\nPublished. Push the release commit and its tags: git push --follow-tags\n');
  } else {
    pnpm('publish (dry run)', ['publish', '--recursive', '--access', 'public', '--dry-run', '--no-git-checks'], root);
    process.stdout.write(
      '\nDry run complete: nothing was published and this working tree is unchanged. Publish with `pnpm release --publish`.\n',
    );
  }
}

if (publish) {
  if (output('git', ['status', '--porcelain'], ROOT).trim() !== '') {
    process.stderr.write('pnpm release --publish needs a clean working tree: commit or remove your changes first.\n');
    process.exit(1);
  }
  release(ROOT);
} else {
  const copy = copyWorkingTree();
  try {
    process.stdout.write(`Dry run in a temporary copy of this working tree: ${copy}\n`);
    pnpm('install (from the lockfile)', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=silent'], copy);
    release(copy);
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
