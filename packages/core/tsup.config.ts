import { defineConfig } from 'tsup';
import { sharedTsupOptions } from '../../tsup.shared.ts';

// Two entry points: the contracts, and the store contract suites at `@milpa/core/testing`.
export default defineConfig({ ...sharedTsupOptions, entry: { index: 'src/index.ts', testing: 'src/testing/index.ts' } });
