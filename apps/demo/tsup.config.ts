import { defineConfig } from 'tsup';

// The demo's CLI as plain JavaScript, for the end-to-end tests (they spawn `node dist/main.js`, as
// fast on a loaded machine as any Node program). `pnpm demo` still runs the sources through tsx.
// The @milpa/* packages stay external: at run time they resolve to their own built dist/.
export default defineConfig({
  entry: ['src/main.ts'],
  format: ['esm'],
  sourcemap: true,
  clean: true,
  target: 'node20',
  removeNodeProtocol: false,
});
