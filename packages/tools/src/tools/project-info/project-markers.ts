/** Whether a marker names a framework (what the app is built on) or a tool (how it is built, tested, shipped). */
export type ProjectMarkerKind = 'framework' | 'tool';

/**
 * How one framework or tool is recognised in a project folder: by file names at its root, by
 * dependencies in `package.json`, or by a top-level `package.json` key.
 */
export interface ProjectMarker {
  /** The name reported, e.g. `Next.js`. */
  readonly name: string;
  /** Framework or tool. */
  readonly kind: ProjectMarkerKind;
  /** Exact file names at the project root, e.g. `nest-cli.json`. */
  readonly files?: readonly string[];
  /**
   * Config file stems whose extension varies: `next.config` matches `next.config.js`, `.mjs`,
   * `.cjs`, `.ts`, `.mts`, `.cts`, `.json`, `.json5`, `.yaml`, `.yml`, `.toml`, and the bare stem.
   */
  readonly configStems?: readonly string[];
  /** Package names in `dependencies` or `devDependencies`. */
  readonly dependencies?: readonly string[];
  /** Package name prefixes, e.g. `@remix-run/`. */
  readonly dependencyPrefixes?: readonly string[];
  /** Top-level `package.json` keys that configure the tool, e.g. `jest`. */
  readonly manifestKeys?: readonly string[];
  /**
   * Files alone are not enough: a dependency must be present too (a `svelte.config.js` is also
   * found in plain Svelte projects, so SvelteKit needs `@sveltejs/kit`).
   */
  readonly requiresDependency?: boolean;
}

/** The frameworks and tools `project_info` recognises, in the order it reports them. */
export const PROJECT_MARKERS: readonly ProjectMarker[] = Object.freeze([
  { name: 'Next.js', kind: 'framework', configStems: ['next.config'], dependencies: ['next'] },
  { name: 'NestJS', kind: 'framework', files: ['nest-cli.json'], dependencies: ['@nestjs/core'] },
  { name: 'Express', kind: 'framework', dependencies: ['express'] },
  { name: 'Vite', kind: 'framework', configStems: ['vite.config'], dependencies: ['vite'] },
  { name: 'Remix', kind: 'framework', configStems: ['remix.config'], dependencyPrefixes: ['@remix-run/'] },
  { name: 'Astro', kind: 'framework', configStems: ['astro.config'], dependencies: ['astro'] },
  { name: 'SvelteKit', kind: 'framework', configStems: ['svelte.config'], dependencies: ['@sveltejs/kit'], requiresDependency: true },
  { name: 'Nuxt', kind: 'framework', configStems: ['nuxt.config'], dependencies: ['nuxt'] },
  { name: 'TypeScript', kind: 'tool', files: ['tsconfig.json'], dependencies: ['typescript'] },
  { name: 'pnpm', kind: 'tool', files: ['pnpm-lock.yaml', 'pnpm-workspace.yaml'] },
  { name: 'Yarn', kind: 'tool', files: ['yarn.lock', '.yarnrc.yml'] },
  { name: 'npm', kind: 'tool', files: ['package-lock.json', 'npm-shrinkwrap.json'] },
  { name: 'Bun', kind: 'tool', files: ['bun.lockb', 'bun.lock'] },
  { name: 'Turborepo', kind: 'tool', files: ['turbo.json'], dependencies: ['turbo'] },
  { name: 'Nx', kind: 'tool', files: ['nx.json'], dependencies: ['nx'] },
  { name: 'Vitest', kind: 'tool', configStems: ['vitest.config', 'vitest.workspace'], dependencies: ['vitest'] },
  { name: 'Jest', kind: 'tool', configStems: ['jest.config'], dependencies: ['jest'], manifestKeys: ['jest'] },
  { name: 'ESLint', kind: 'tool', configStems: ['eslint.config', '.eslintrc'], dependencies: ['eslint'], manifestKeys: ['eslintConfig'] },
  {
    name: 'Prettier',
    kind: 'tool',
    configStems: ['prettier.config', '.prettierrc'],
    dependencies: ['prettier'],
    manifestKeys: ['prettier'],
  },
  { name: 'Biome', kind: 'tool', files: ['biome.json', 'biome.jsonc'], dependencies: ['@biomejs/biome'] },
  {
    name: 'Docker',
    kind: 'tool',
    files: ['Dockerfile', 'docker-compose.yml', 'docker-compose.yaml', 'compose.yml', 'compose.yaml', '.dockerignore'],
  },
] satisfies readonly ProjectMarker[]);
