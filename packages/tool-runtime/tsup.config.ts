import { defineConfig } from 'tsup';
import { sharedTsupOptions } from '../../tsup.shared.ts';

// Five entry points: the engine, and the subpaths `/routing` (what a model is offered),
// `/inspection` (invocation plans), `/rendering` (results as text) and `/audit` (the audit trail and redaction).
export default defineConfig({
  ...sharedTsupOptions,
  entry: {
    index: 'src/index.ts',
    routing: 'src/routing/index.ts',
    inspection: 'src/inspection/index.ts',
    rendering: 'src/rendering/index.ts',
    audit: 'src/audit/index.ts',
  },
});
