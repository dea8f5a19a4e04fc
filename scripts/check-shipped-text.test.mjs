// Tests of check-shipped-text.mjs on throwaway repositories: planted jargon must be found where it
// is shipped, ignored where it is not, and clean text must pass. Run with `node --test scripts/`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findJargon, runCheck, scanShippedText } from './check-shipped-text.mjs';

const SCRIPT = fileURLToPath(new URL('./check-shipped-text.mjs', import.meta.url));

const roots = [];

/** A temporary repository holding `files` (relative path → content). */
function repository(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-shipped-text-'));
  roots.push(root);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const CLEAN = {
  'README.md': '# Milpa\n\nA design note: the seedling sprouts; linseed oil. Designs change.\n',
  'packages/core/README.md': '# @milpa/core\n\nThe design of the API.\n',
  'packages/core/dist/index.d.ts': '/** A mutating tool costs 5 tokens by default. */\nexport declare const COST: number;\n',
};

function run(root) {
  const out = [];
  const err = [];
  const status = runCheck(root, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { status, out, err };
}

afterEach(() => {
  while (roots.length > 0) rmSync(roots.pop(), { recursive: true, force: true });
});

describe('findJargon', () => {
  it('finds seed, seeds and seeded in any case, DESIGN in capitals and §, with line and column', () => {
    const text = 'ok\nThe Seed said so; seeds, SEEDED.\nper DESIGN decision 3 (§3 E50)\n';
    assert.deepEqual(
      findJargon(text).map(({ line, column, match }) => [line, column, match]),
      [
        [2, 5, 'Seed'],
        [2, 19, 'seeds'],
        [2, 26, 'SEEDED'],
        [3, 5, 'DESIGN'],
        [3, 24, '§'],
      ],
    );
  });

  it('counts a word joined by an underscore or a hyphen, and not one inside a longer word', () => {
    assert.deepEqual(
      findJargon('SEED_CHANNEL_POLICIES seed-examples seedling linseed design Design reseeded').map((hit) => hit.match),
      ['SEED', 'seed'],
    );
  });

  it('returns the trimmed line as the hit text', () => {
    assert.equal(findJargon('   * the seed policy   ')[0]?.text, '* the seed policy');
  });
});

describe('scanShippedText', () => {
  it('reports hits in READMEs and in dist declarations, and nothing from files that are not shipped', () => {
    const root = repository({
      ...CLEAN,
      'README.md': '# Milpa\n\nAs the seed did.\n',
      'packages/tool-runtime/README.md': '# @milpa/tool-runtime\n\nfine\nsee DESIGN 4\n',
      'packages/tool-runtime/dist/index.d.ts': '/** Channel policies. */\nexport declare const SEED_CHANNEL_POLICIES: object;\n',
      'packages/tool-runtime/dist/policy/gate.d.mts': '// (reference §3 F73)\n',
      // Not shipped text, or not ours: never scanned.
      'packages/tool-runtime/dist/index.js': 'const seed = 1;\n',
      'packages/tool-runtime/dist/index.d.ts.map': '{"sources":["seed"]}\n',
      'packages/tool-runtime/src/index.ts': '// the seed\n',
      'packages/tool-runtime/dist/node_modules/fast-check/index.d.ts': 'seed: number;\n',
      'packages/tool-runtime/node_modules/fast-check/README.md': 'Pass a seed to replay a run.\n',
      'apps/demo/README.md': 'seed\n',
      'docs/DESIGN.md': 'DESIGN\n',
    });
    const { files, declarationCount, hits } = scanShippedText(root);
    assert.deepEqual(files, [
      'README.md',
      'packages/core/README.md',
      'packages/tool-runtime/README.md',
      'packages/core/dist/index.d.ts',
      'packages/tool-runtime/dist/index.d.ts',
      'packages/tool-runtime/dist/policy/gate.d.mts',
    ]);
    assert.equal(declarationCount, 3);
    assert.deepEqual(
      hits.map(({ file, line, match }) => `${file}:${line}:${match}`),
      [
        'README.md:3:seed',
        'packages/tool-runtime/README.md:4:DESIGN',
        'packages/tool-runtime/dist/index.d.ts:2:SEED',
        'packages/tool-runtime/dist/policy/gate.d.mts:1:§',
      ],
    );
  });

  it('finds nothing in clean text', () => {
    assert.deepEqual(scanShippedText(repository(CLEAN)).hits, []);
  });
});

describe('runCheck', () => {
  it('prints file:line: text for each hit and returns 1', () => {
    const root = repository({ ...CLEAN, 'packages/core/dist/index.d.ts': '/**\n * Fields in the seed order.\n */\n' });
    const { status, out, err } = run(root);
    assert.equal(status, 1);
    assert.deepEqual(out, []);
    assert.equal(err[0], 'packages/core/dist/index.d.ts:2: * Fields in the seed order.');
    assert.match(err.at(-1) ?? '', /1 mention/);
  });

  it('prints one OK line and returns 0 when the shipped text is clean', () => {
    const { status, out, err } = run(repository(CLEAN));
    assert.equal(status, 0);
    assert.deepEqual(err, []);
    assert.equal(out.length, 1);
    assert.match(out[0] ?? '', /^check-shipped-text: OK/);
  });

  it('fails when there is no built declaration to scan, rather than pass on nothing', () => {
    const { status, err } = run(repository({ 'README.md': '# clean\n', 'packages/core/README.md': '# clean\n' }));
    assert.equal(status, 1);
    assert.match(err[0] ?? '', /build the packages first/);
  });
});

describe('the command', () => {
  it('exits 1 with the hits on a repository with jargon, and 0 on a clean one', () => {
    const dirty = repository({ ...CLEAN, 'packages/core/README.md': '# @milpa/core\n\n§ 2\n' });
    const failed = spawnSync(process.execPath, [SCRIPT, dirty], { encoding: 'utf8' });
    assert.equal(failed.status, 1);
    assert.match(failed.stderr, /^packages\/core\/README\.md:3: § 2$/m);

    const passed = spawnSync(process.execPath, [SCRIPT, repository(CLEAN)], { encoding: 'utf8' });
    assert.equal(passed.status, 0, passed.stderr);
    assert.match(passed.stdout, /^check-shipped-text: OK/);
  });
});
