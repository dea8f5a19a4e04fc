// The vitest config of the compatibility matrix (scripts/compat-matrix.mjs copies it beside an
// adapter's copied src/ and test/ in a throwaway project). Two projects share the workspace's
// settings (vitest.shared.ts, copied alongside):
// - `source`: the colocated unit tests (src/**/*.test.ts) run on the adapter's sources, since they
//   test modules the package does not export;
// - `built`: the integration tests (test/**/*.test.ts) run on the packed adapter as users install it.
//   Every import of the adapter's src/ from the tests resolves to the installed package's entry point
//   instead (its dist/, loaded by Node), and loading any source file fails the run, so a passing
//   `built` project proves the published build works.
// The sibling `@milpa/*` packages resolve to their packed dist/ in both projects: the tarballs carry
// no `@milpa/source` condition.
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedConfig } from '../../vitest.shared.ts';

const packageDir = dirname(fileURLToPath(import.meta.url));
const sourceDir = `${join(packageDir, 'src')}${sep}`;
const packageName = process.env.MILPA_COMPAT_PACKAGE;
if (packageName === undefined || packageName === '') {
  throw new Error('MILPA_COMPAT_PACKAGE must name the adapter package under test (scripts/compat-matrix.mjs sets it).');
}

/** Resolves the tests' imports of the adapter's sources to the installed package, and refuses to load a source file. */
const builtPackage = {
  name: 'milpa:compat-built-package',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (importer === undefined || !source.startsWith('.')) return null;
    const target = resolve(dirname(importer.split('?')[0] ?? importer), source);
    if (!target.startsWith(sourceDir)) return null;
    const resolved = await this.resolve(packageName, importer, { ...options, skipSelf: true });
    if (resolved === null) throw new Error(`${packageName} is not installed in the compatibility project.`);
    return resolved;
  },
  load(id) {
    if (id.startsWith(sourceDir)) {
      throw new Error(`The built-package tests loaded a source file (${id}): import what they use from ${packageName}'s entry point.`);
    }
    return null;
  },
};

// Without the shared `include`: a project that extends the root would add its own to it, not replace it.
const { include: _everyTest, ...sharedTest } = sharedConfig.test;

export default {
  ...sharedConfig,
  test: {
    ...sharedTest,
    projects: [
      { extends: true, test: { name: 'source', include: ['src/**/*.test.ts'] } },
      { extends: true, plugins: [builtPackage], test: { name: 'built', include: ['test/**/*.test.ts'] } },
    ],
  },
};
