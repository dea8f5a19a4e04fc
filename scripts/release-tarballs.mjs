// The tarballs a release would publish, packed once for the release check and the release rehearsal:
// the published packages (packages/*, not private) at the version the pending changesets give them.
//
// `changeset version` runs in a temporary copy that holds only what packing reads (the root and
// workspace manifests, .changeset/, and each package's package.json and `files`), so this working
// tree is never changed; `pnpm pack --recursive` then packs the copy exactly as `pnpm publish` would
// (`workspace:^` becomes `^<version>`, `catalog:` its range, publishConfig applied). With no pending
// changesets (`pnpm release` runs the release check after versioning) the versions stay as they are.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** The file, beside the tarballs, that lists them (so another process can reuse them). */
export const TARBALLS_MANIFEST = 'tarballs.json';

/**
 * The published packages of a workspace: every packages/* whose package.json is not private.
 *
 * @param {string} root
 * @returns {{ dir: string, dirName: string, manifest: Record<string, any> }[]}
 */
export function publishedPackages(root) {
  const packagesDir = join(root, 'packages');
  return readdirSync(packagesDir)
    .sort()
    .map((dirName) => ({ dirName, dir: join(packagesDir, dirName) }))
    .filter(({ dir }) => existsSync(join(dir, 'package.json')))
    .map(({ dir, dirName }) => ({ dir, dirName, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .filter(({ manifest }) => manifest.private !== true);
}

/**
 * Runs a command to its end; returns its status, its stdout and its combined output.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [options]
 * @returns {{ ok: boolean, stdout: string, output: string }}
 */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' }, ...options });
  if (result.error) throw result.error;
  return { ok: result.status === 0, stdout: result.stdout ?? '', output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

/** pnpm as the calling script was started with (`npx pnpm@… test` need not leave pnpm on PATH). */
function pnpm(args, options) {
  const execPath = process.env['npm_execpath'];
  if (execPath !== undefined && /pnpm/.test(execPath)) return run(process.execPath, [execPath, ...args], options);
  return run('pnpm', args, options);
}

/** Copies what `changeset version` and `pnpm pack` read into `copy`, and links the workspace siblings. */
function copyForPacking(root, copy, packages) {
  for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, file), join(copy, file));
  cpSync(join(root, '.changeset'), join(copy, '.changeset'), { recursive: true });
  // `changeset version` resolves the changelog generator from the copy.
  mkdirSync(join(copy, 'node_modules'));
  symlinkSync(join(root, 'node_modules', '@changesets'), join(copy, 'node_modules', '@changesets'), 'dir');
  for (const { dir, dirName, manifest } of packages) {
    const target = join(copy, 'packages', dirName);
    mkdirSync(target, { recursive: true });
    cpSync(join(dir, 'package.json'), join(target, 'package.json'));
    for (const entry of manifest.files ?? []) {
      if (existsSync(join(dir, entry))) cpSync(join(dir, entry), join(target, entry), { recursive: true });
    }
  }
  // pnpm reads a `workspace:` dependency's version through the package's node_modules link to it.
  const names = new Map(packages.map(({ dirName, manifest }) => [manifest.name, dirName]));
  for (const { dirName, manifest } of packages) {
    const fields = {
      ...manifest.dependencies,
      ...manifest.peerDependencies,
      ...manifest.optionalDependencies,
      ...manifest.devDependencies,
    };
    for (const dependency of Object.keys(fields).filter((name) => names.has(name))) {
      const link = join(copy, 'packages', dirName, 'node_modules', dependency);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(join(copy, 'packages', names.get(dependency)), link, 'dir');
    }
  }
}

/**
 * Versions the published packages with the pending changesets in a temporary copy and packs them
 * into `destination`, where it also writes {@link TARBALLS_MANIFEST}.
 *
 * @param {string} root the workspace root (packages must be built)
 * @param {string} destination an existing directory
 * @returns {{ ok: true, tarballs: { name: string, dirName: string, version: string, tarball: string }[] } | { ok: false, problem: string }}
 */
export function packVersionedTarballs(root, destination) {
  const packages = publishedPackages(root);
  const unbuilt = packages.filter(({ dir }) => !existsSync(join(dir, 'dist')));
  if (unbuilt.length > 0) {
    return {
      ok: false,
      problem: `dist/ is missing in ${unbuilt.map(({ manifest }) => manifest.name).join(', ')}: build first (pnpm build)`,
    };
  }
  const copy = mkdtempSync(join(tmpdir(), 'milpa-release-pack-'));
  try {
    copyForPacking(root, copy, packages);
    const version = run(process.execPath, [join(root, 'node_modules', '@changesets', 'cli', 'bin.js'), 'version'], { cwd: copy });
    if (!version.ok) return { ok: false, problem: `changeset version failed:\n${version.output}` };
    const pack = pnpm(['--recursive', '--filter', './packages/*', 'pack', '--json', '--pack-destination', destination], { cwd: copy });
    if (!pack.ok) return { ok: false, problem: `pnpm pack failed:\n${pack.output}` };
    const packed = JSON.parse(pack.stdout);
    const tarballs = packages.map(({ dirName, manifest }) => {
      const entry = packed.find((candidate) => candidate.name === manifest.name);
      if (entry === undefined) throw new Error(`pnpm pack did not pack ${manifest.name}`);
      return { name: manifest.name, dirName, version: entry.version, tarball: entry.filename };
    });
    writeFileSync(join(destination, TARBALLS_MANIFEST), `${JSON.stringify(tarballs, null, 2)}\n`);
    return { ok: true, tarballs };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}

/**
 * The tarballs {@link packVersionedTarballs} left in `directory`, or null when there are none.
 *
 * @param {string} directory
 * @returns {{ name: string, dirName: string, version: string, tarball: string }[] | null}
 */
export function readPackedTarballs(directory) {
  const path = join(directory, TARBALLS_MANIFEST);
  if (!existsSync(path)) return null;
  const tarballs = JSON.parse(readFileSync(path, 'utf8'));
  return tarballs.every(({ tarball }) => existsSync(tarball)) ? tarballs : null;
}
