// Shared vitest settings for every workspace package.
// - Sibling packages resolve through the `@milpa/source` export condition, so tests run against
//   `src/` without building anything first.
// - TypeScript is transformed with esbuild instead of Vite 8's default (oxc), because oxc does not
//   lower TC39 standard decorators, which `@milpa/core`'s `tool` decorator relies on and Node 20
//   cannot run natively. tsup and tsx use esbuild too, so tests see the same output as builds.
import { availableParallelism } from 'node:os';
import { transform } from 'esbuild';
import { defaultServerConditions, type Plugin } from 'vite';

// Without Vite's `module` condition, which Node does not know: dependencies resolve as they do at
// run time (the OpenTelemetry packages' `module` builds use extension-less imports Node cannot load).
const conditions = ['@milpa/source', ...defaultServerConditions.filter((condition) => condition !== 'module')];

const esbuildTypeScript: Plugin = {
  name: 'milpa:esbuild-typescript',
  enforce: 'pre',
  async transform(code, id) {
    if (!/\.(?:ts|mts|cts)$/.test(id.split('?')[0] ?? '')) return null;
    const result = await transform(code, {
      sourcefile: id,
      loader: 'ts',
      target: 'node20',
      format: 'esm',
      sourcemap: 'external',
    });
    return { code: result.code, map: result.map };
  },
};

// A plain object (no `defineConfig` import): vitest is a dependency of each package, not of the
// repository root where this file lives.
export const sharedConfig = {
  oxc: false,
  plugins: [esbuildTypeScript],
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ['@milpa/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    passWithNoTests: true,
    restoreMocks: true,
    // Test files share one module graph per worker instead of importing everything again for each
    // file: importing was two thirds of a package's test time. Each file still gets fresh mocks
    // (`restoreMocks`), and a file that changes global state restores it in its own hooks.
    isolate: false,
    // Half the cores: turbo runs two packages at once (`concurrency` in turbo.json), so on a 2-core
    // machine each vitest gets one worker and the cores are not oversubscribed.
    maxWorkers: Math.max(1, Math.floor(availableParallelism() / 2)),
    // Generous: CI machines have 2 cores shared by turbo's parallel tasks. Speed is measured in
    // `pnpm bench`, never by a test's timeout, so a slow machine must not fail a correct test.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
};
