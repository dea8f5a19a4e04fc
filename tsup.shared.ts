// Shared tsup settings for every published package (each package's tsup.config.ts spreads these).
// A plain object, like vitest.shared.ts: tsup is a dependency of each package, not of the root.
export const sharedTsupOptions = {
  entry: ['src/index.ts'],
  format: ['esm' as const],
  // Declarations come from TypeScript 7 after tsup (each package's build script and
  // tsconfig.build.json): tsup's own declaration bundling takes ten times as long.
  dts: false,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // Keep `node:fs` rather than `fs` in the output: the prefix cannot be shadowed by a package of the
  // same name on npm, and it is what the sources say.
  removeNodeProtocol: false,
};
