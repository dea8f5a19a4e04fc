import { defineConfig } from 'tsup';
import { sharedTsupOptions } from '../../tsup.shared.ts';

// Three entry points: the contracts, the store contract suites at `@milpa/core/testing`, and the
// helpers Milpa's packages share at `@milpa/core/kit`.
export default defineConfig({
  ...sharedTsupOptions,
  entry: { index: 'src/index.ts', testing: 'src/testing/index.ts', kit: 'src/kit/index.ts' },
});
