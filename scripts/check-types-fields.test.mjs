// Tests of check-types-fields.mjs, run by `pnpm test` (node --test scripts/*.test.mjs).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkTypesFields } from './check-types-fields.mjs';

const exportsWithSubpath = {
  '.': { types: './dist/index.d.ts', default: './dist/index.js' },
  './testing': { types: './dist/testing.d.ts', default: './dist/testing.js' },
  './package.json': './package.json',
};

describe('checkTypesFields', () => {
  it('accepts a manifest whose types and typesVersions name what exports names', () => {
    const manifest = {
      types: './dist/index.d.ts',
      typesVersions: { '*': { testing: ['./dist/testing.d.ts'] } },
      exports: exportsWithSubpath,
    };
    assert.deepEqual(checkTypesFields('@milpa/x', manifest), []);
  });

  it('accepts a manifest without subpaths and without typesVersions', () => {
    const manifest = { types: './dist/index.d.ts', exports: { '.': exportsWithSubpath['.'], './package.json': './package.json' } };
    assert.deepEqual(checkTypesFields('@milpa/x', manifest), []);
  });

  it('reports a missing top-level types field', () => {
    const problems = checkTypesFields('@milpa/x', { exports: { '.': exportsWithSubpath['.'] } });
    assert.equal(problems.length, 1);
    assert.match(problems[0], /^@milpa\/x: the top-level types field is undefined, expected "\.\/dist\/index\.d\.ts"/);
  });

  it('reports a top-level types field that names other declarations than exports', () => {
    const problems = checkTypesFields('@milpa/x', { types: './index.d.ts', exports: { '.': exportsWithSubpath['.'] } });
    assert.equal(problems.length, 1);
    assert.match(problems[0], /top-level types field is "\.\/index\.d\.ts"/);
  });

  it('reports a subpath without a typesVersions entry, and one pointing elsewhere', () => {
    const manifest = { types: './dist/index.d.ts', exports: exportsWithSubpath };
    assert.match(checkTypesFields('@milpa/x', manifest)[0] ?? '', /typesVersions\["\*"\]\["testing"\] is undefined/);
    const elsewhere = { ...manifest, typesVersions: { '*': { testing: ['./dist/index.d.ts'] } } };
    assert.match(checkTypesFields('@milpa/x', elsewhere)[0] ?? '', /expected \["\.\/dist\/testing\.d\.ts"\]/);
  });

  it('reports a main entry without a types condition', () => {
    assert.deepEqual(checkTypesFields('@milpa/x', { exports: { '.': './dist/index.js' } }), [
      '@milpa/x: exports["."] has no types condition',
    ]);
  });
});
