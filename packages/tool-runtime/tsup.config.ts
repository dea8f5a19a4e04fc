import { defineConfig } from 'tsup';
import { sharedTsupOptions } from '../../tsup.shared.ts';

// Four entry points: the engine, and the subpaths `/routing` (what a model is offered),
// `/inspection` (invocation plans) and `/rendering` (results as text).
export default defineConfig({
  ...sharedTsupOptions,
  entry: {
    index: 'src/index.ts',
    routing: 'src/routing/index.ts',
    inspection: 'src/inspection/index.ts',
    rendering: 'src/rendering/index.ts',
  },
});
