// Tests of the compatibility matrix's planning and reporting (compat-matrix.mjs): which versions
// and packages the throwaway project gets, and how vitest's report becomes one line per adapter.
// The matrix itself runs in CI (`node scripts/compat-matrix.mjs`). Run with `node --test scripts/`.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { MATRIX, TOOLS, countTests, formatAdapterLine, problemOf, readCatalog, workspaceClosure } from './compat-matrix.mjs';

const WORKSPACE_YAML = readFileSync(new URL('../pnpm-workspace.yaml', import.meta.url), 'utf8');

describe('readCatalog', () => {
  it('reads the default catalog, quoted names included, and not the named catalogs', () => {
    const yaml = [
      'packages:',
      '  - packages/*',
      'catalog:',
      '  # a comment',
      '  typescript: 5.9.3',
      '  "@types/node": 20.19.43 # pinned',
      'catalogs:',
      '  runtime:',
      '    typebox: ^1.4.3',
      'overrides:',
      '  "@opentelemetry/api": 1.9.1',
    ].join('\n');
    assert.deepEqual(
      readCatalog(yaml),
      new Map([
        ['typescript', '5.9.3'],
        ['@types/node', '20.19.43'],
      ]),
    );
  });

  it('finds every tool the throwaway project needs, pinned exactly, in the workspace catalog but esbuild', () => {
    const catalog = readCatalog(WORKSPACE_YAML);
    const rootDevDependencies = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).devDependencies;
    for (const tool of TOOLS) {
      const pinned = catalog.get(tool) ?? rootDevDependencies[tool];
      assert.match(pinned ?? '', /^\d+\.\d+\.\d+$/, `${tool} is pinned exactly`);
    }
  });
});

describe('MATRIX', () => {
  it('pins Node 22 and every framework version exactly, newer than the workspace catalog', () => {
    assert.match(MATRIX.node, /^22\.\d+\.\d+$/);
    const catalog = readCatalog(WORKSPACE_YAML);
    for (const { framework } of MATRIX.adapters) {
      for (const [name, version] of Object.entries(framework)) {
        assert.match(version, /^\d+\.\d+\.\d+$/, `${name} is pinned exactly`);
        assert.notEqual(version, catalog.get(name), `${name}: the matrix tests another version than the workspace`);
      }
    }
  });
});

describe('workspaceClosure', () => {
  const manifests = new Map([
    ['@milpa/core', { dependencies: { typebox: '^1.4.3' } }],
    ['@milpa/tool-runtime', { dependencies: { '@milpa/core': 'workspace:^' } }],
    ['@milpa/verification', { dependencies: { '@milpa/core': 'workspace:^' } }],
    ['@milpa/console', { dependencies: { '@milpa/core': 'workspace:^' } }],
    [
      '@milpa/ai-sdk',
      {
        dependencies: { '@milpa/core': 'workspace:^' },
        devDependencies: { '@milpa/tool-runtime': 'workspace:*', '@milpa/verification': 'workspace:*', ai: 'catalog:' },
      },
    ],
  ]);

  it('follows workspace dependencies and devDependencies, and nothing else', () => {
    assert.deepEqual(workspaceClosure(manifests, ['@milpa/ai-sdk']), [
      '@milpa/ai-sdk',
      '@milpa/core',
      '@milpa/tool-runtime',
      '@milpa/verification',
    ]);
  });

  it('throws when a name is not a workspace package', () => {
    assert.throws(() => workspaceClosure(manifests, ['@milpa/nope']), /@milpa\/nope is not a package of this workspace/);
  });
});

describe('countTests', () => {
  const packageDir = '/tmp/project/packages/ai-sdk';
  const file = (name, statuses, status = 'passed') => ({
    name: `${packageDir}/${name}`,
    status,
    assertionResults: statuses.map((each) => ({ status: each })),
  });

  it('counts unit tests under src/ and integration tests under test/', () => {
    const counts = countTests(
      {
        testResults: [
          file('src/a.test.ts', ['passed', 'passed']),
          file('src/tools/b.test.ts', ['passed', 'skipped']),
          file('test/c.test.ts', ['passed', 'failed'], 'failed'),
        ],
      },
      packageDir,
    );
    assert.deepEqual(counts.source, { files: 2, passed: 3, failed: 0, skipped: 1 });
    assert.deepEqual(counts.built, { files: 1, passed: 1, failed: 1, skipped: 0 });
    assert.deepEqual(counts.failedFiles, [`${packageDir}/test/c.test.ts`]);
  });

  it('does not take a src/ directory elsewhere for the package sources', () => {
    const counts = countTests({ testResults: [file('test/src/d.test.ts', ['passed'])] }, packageDir);
    assert.equal(counts.built.passed, 1);
    assert.equal(counts.source.files, 0);
  });
});

describe('problemOf', () => {
  const clean = () => ({
    source: { files: 1, passed: 4, failed: 0, skipped: 0 },
    built: { files: 1, passed: 2, failed: 0, skipped: 0 },
    failedFiles: [],
  });

  it('is null for a clean pass', () => {
    assert.equal(problemOf(clean()), null);
  });

  it('names failed and skipped tests, and a project that ran nothing', () => {
    const counts = clean();
    counts.source.failed = 2;
    counts.built = { files: 0, passed: 0, failed: 0, skipped: 1 };
    assert.equal(problemOf(counts), '2 source test(s) failed, the built tests ran nothing, 1 built test(s) skipped');
  });

  it('names a test file that failed to load', () => {
    const counts = clean();
    counts.failedFiles.push('/tmp/project/packages/ai-sdk/test/e.test.ts');
    assert.equal(problemOf(counts), '1 test file(s) failed to run');
  });
});

describe('formatAdapterLine', () => {
  const counts = {
    source: { files: 5, passed: 28, failed: 0, skipped: 0 },
    built: { files: 4, passed: 32, failed: 0, skipped: 0 },
    failedFiles: [],
  };

  it('gives the versions and both counts of a passing adapter', () => {
    const line = formatAdapterLine({
      name: '@milpa/ai-sdk',
      framework: { ai: '7.0.185' },
      node: '22.23.3',
      counts,
      problem: null,
      ms: 48_612,
    });
    assert.equal(
      line,
      'ok   @milpa/ai-sdk on Node 22.23.3 with ai 7.0.185: type-checked, 28 unit tests passed on the sources (5 files), ' +
        '32 integration tests passed on the packed build (4 files), 48.6 s',
    );
  });

  it('says FAIL and why, also when vitest left no report', () => {
    const line = formatAdapterLine({
      name: '@milpa/openai-agents',
      framework: { '@openai/agents': '0.20.0' },
      node: '22.23.3',
      counts: undefined,
      problem: '@milpa/openai-agents: type-check failed',
      ms: 1_000,
    });
    assert.match(
      line,
      /^FAIL @milpa\/openai-agents on Node 22\.23\.3 with @openai\/agents 0\.20\.0: no test results, 1\.0 s — .*type-check failed$/,
    );
  });
});
