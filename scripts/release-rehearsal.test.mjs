import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  installSpecsOf,
  mainExampleOf,
  publishedManifestProblems,
  REHEARSED_PACKAGES,
  userTsconfig,
  verdaccioConfig,
} from './release-rehearsal.mjs';
import { readPackedTarballs, TARBALLS_MANIFEST } from './release-tarballs.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const fence = '```';

describe('installSpecsOf', () => {
  it('returns the names on the npm install lines of the Install section, each once, and nothing from other sections', () => {
    const markdown = [
      '# @milpa/x',
      '## Install',
      `${fence}sh`,
      'npm install @milpa/x @milpa/core ai@6',
      '# the engine that runs the calls',
      'npm install @milpa/tool-runtime @milpa/core',
      fence,
      '## Usage',
      `${fence}sh`,
      'npm install not-this-one',
      fence,
    ].join('\n');
    assert.deepEqual(installSpecsOf(markdown), ['@milpa/x', '@milpa/core', 'ai@6', '@milpa/tool-runtime']);
  });

  it('leaves out lines marked optional by a comment before them or after them, and options', () => {
    const markdown = [
      '## Install',
      `${fence}sh`,
      'npm install --save @milpa/tools',
      '# optional: the reference dispatcher',
      'npm install @milpa/events',
      'npm install better-sqlite3   # only for db_query over SQLite',
      'npm install zod',
      fence,
    ].join('\n');
    assert.deepEqual(installSpecsOf(markdown), ['@milpa/tools', 'zod']);
  });

  it('returns no names for a README without an Install section', () => {
    assert.deepEqual(installSpecsOf('# x\n\n## Usage\n\nnpm install y\n'), []);
  });

  it('tells users of every rehearsed package to install it', () => {
    for (const dirName of REHEARSED_PACKAGES) {
      const markdown = readFileSync(join(root, 'packages', dirName, 'README.md'), 'utf8');
      const { name } = JSON.parse(readFileSync(join(root, 'packages', dirName, 'package.json'), 'utf8'));
      assert.ok(installSpecsOf(markdown).includes(name), `${dirName}: ${installSpecsOf(markdown).join(' ')}`);
    }
  });
});

describe('mainExampleOf', () => {
  it('returns the first checked block under ## Usage, skipping a skipped one and blocks before the heading', () => {
    const markdown = [
      '## Install',
      `${fence}ts`,
      'before();',
      fence,
      '## Usage',
      '<!-- snippet: skip -->',
      `${fence}ts`,
      'skipped();',
      fence,
      '<!-- snippet: fragment -->',
      `${fence}ts`,
      'main();',
      fence,
      `${fence}ts`,
      'later();',
      fence,
    ].join('\n');
    const example = mainExampleOf(markdown);
    assert.equal(example?.code, 'main();\n');
    assert.equal(example?.mode, 'fragment');
    assert.equal(example?.line, 12);
  });

  it('returns null without a Usage section or without a block in it', () => {
    assert.equal(mainExampleOf(`## Install\n${fence}ts\na;\n${fence}\n`), null);
    assert.equal(mainExampleOf('## Usage\n\nText only.\n'), null);
  });
});

describe('publishedManifestProblems', () => {
  const core = { name: '@milpa/core', version: '0.1.0', dependencies: { typebox: '^1.4.3' } };
  const runtime = { name: '@milpa/tool-runtime', version: '0.1.0', dependencies: { '@milpa/core': '^0.1.0' } };

  it('finds nothing in a release whose packages share a version and ask for it from each other', () => {
    assert.deepEqual(publishedManifestProblems([core, runtime]), []);
  });

  it('finds an unversioned package, a workspace: specifier and a sibling range of another version', () => {
    const problems = publishedManifestProblems([
      { ...core, version: '0.0.0' },
      { ...runtime, dependencies: { '@milpa/core': 'workspace:^' }, peerDependencies: { '@milpa/events': '^0.0.0' } },
      { name: '@milpa/events', version: '0.1.0' },
    ]);
    assert.deepEqual(problems, [
      'the packages do not share one version: 0.0.0, 0.1.0',
      '@milpa/core: version 0.0.0 (the pending changesets were not applied)',
      '@milpa/tool-runtime: a workspace: or catalog: specifier remains',
      '@milpa/tool-runtime: dependencies.@milpa/core is "workspace:^", expected "^0.1.0"',
      '@milpa/tool-runtime: peerDependencies.@milpa/events is "^0.0.0", expected "^0.1.0"',
    ]);
  });
});

describe('userTsconfig', () => {
  it("keeps tsc --init's options, adds the Node types, lowers an esnext target for @tool and checks the files without emitting", () => {
    const init = { compilerOptions: { module: 'nodenext', target: 'esnext', types: [], strict: true, exactOptionalPropertyTypes: true } };
    assert.deepEqual(userTsconfig(init, ['/p/a.ts']), {
      compilerOptions: {
        module: 'nodenext',
        target: 'es2022',
        types: ['node'],
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
      },
      files: ['/p/a.ts'],
    });
  });

  it('leaves a target below esnext as it is', () => {
    assert.equal(userTsconfig({ compilerOptions: { target: 'es2020' } }, []).compilerOptions.target, 'es2020');
  });
});

describe('verdaccioConfig', () => {
  it('serves @milpa/* from the storage given, publishes for signed-in users only and has no uplink', () => {
    const yaml = verdaccioConfig({ storage: '/tmp/s', htpasswd: '/tmp/h' });
    assert.match(yaml, /^storage: "\/tmp\/s"$/m);
    assert.match(yaml, /^ {4}file: "\/tmp\/h"$/m);
    assert.match(yaml, /^uplinks: \{\}$/m);
    assert.match(yaml, /'@milpa\/\*':\n {4}access: \$all\n {4}publish: \$authenticated\n/);
    assert.doesNotMatch(yaml, /proxy:/);
  });
});

describe('readPackedTarballs', () => {
  it('returns the listed tarballs when they all exist, and null when the list or a tarball is missing', () => {
    const directory = mkdtempSync(join(tmpdir(), 'milpa-tarballs-test-'));
    try {
      assert.equal(readPackedTarballs(directory), null);
      const tarball = join(directory, 'milpa-core-0.1.0.tgz');
      const entry = { name: '@milpa/core', dirName: 'core', version: '0.1.0', tarball };
      writeFileSync(join(directory, TARBALLS_MANIFEST), JSON.stringify([entry]));
      assert.equal(readPackedTarballs(directory), null);
      writeFileSync(tarball, '');
      assert.deepEqual(readPackedTarballs(directory), [entry]);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
