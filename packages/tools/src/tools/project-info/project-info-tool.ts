import { MilpaError, Type, type ToolDefinition } from '@milpa/core';
import { readdir } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { rejectUnknownArguments } from '../../lifecycle/argument-checks.js';
import { defineLifecycleTool } from '../../lifecycle/define-lifecycle-tool.js';
import { failure, success } from '../../lifecycle/tool-envelope.js';
import { ToolError } from '../../lifecycle/tool-error.js';
import { Workspace, type WorkspacePath } from '../../sandbox/workspace.js';
import { detectProjectStack, type DetectedStackItem } from './detect-project-stack.js';
import { printFileTree, type PrintedFileTree } from './print-file-tree.js';
import { readPackageManifest, type ManifestReading } from './read-package-manifest.js';
import { resolveProjectRoot } from './resolve-project-root.js';

/** Settings of {@link projectInfoTool}. */
export interface ProjectInfoToolOptions {
  /** The workspace the project lives in; nothing outside it is read. */
  readonly workspace: Workspace;
  /** Scopes of which the caller needs one; default `['workspace:read']`. */
  readonly scopes?: readonly string[];
  /**
   * The project folder described when the model gives no `path`: absolute, or relative to the
   * workspace root; default the workspace root. It must lie inside the workspace; the filesystem
   * root is refused (`FILESYSTEM_ROOT_REFUSED`) on every call.
   */
  readonly projectRoot?: string;
}

/** The arguments of the `project_info` tool. */
export interface ProjectInfoArgs {
  /** A sub-project folder relative to the workspace root (e.g. `packages/web`); default the project root. */
  readonly path?: string;
  /** How many levels of the file tree to print, 1 to 4 (values outside are clamped); default 2. */
  readonly depth?: number;
}

/** What a successful `project_info` call returns. */
export interface ProjectInfoData {
  /** The absolute path of the folder described. */
  readonly root: string;
  /** That folder relative to the workspace root (`.` for the root). */
  readonly path: string;
  /** `name` from `package.json`, or null. */
  readonly name: string | null;
  /** `version` from `package.json`, or null. */
  readonly version: string | null;
  /** `pnpm`, `yarn`, `npm` or `bun`, or null when unknown. */
  readonly package_manager: string | null;
  /** Frameworks found, each with its evidence. */
  readonly frameworks: readonly DetectedStackItem[];
  /** Tools found (TypeScript, lockfiles, turbo, test runners, linters, Docker), each with its evidence. */
  readonly tools: readonly DetectedStackItem[];
  /** `scripts` from `package.json` (name → command), at most 40. */
  readonly scripts: Readonly<Record<string, string>>;
  /** `dependencies` (name → version range), at most 100, by name. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** `devDependencies` (name → version range), at most 100, by name. */
  readonly dev_dependencies: Readonly<Record<string, string>>;
  /** The depth the tree was printed with, after clamping into 1–4. */
  readonly depth: number;
  /** The file tree, one entry per line, indented two spaces per level; folders end in `/`. */
  readonly tree: string;
}

interface PlannedInfo {
  readonly folder: WorkspacePath;
  readonly depth: number;
}

interface GatheredInfo {
  readonly names: readonly string[];
  readonly reading: ManifestReading;
  readonly tree: PrintedFileTree;
}

const ARGUMENT_NAMES = ['path', 'depth'] as const;
const DEFAULT_DEPTH = 2;
const MIN_DEPTH = 1;
const MAX_DEPTH = 4;
const MAX_TREE_ENTRIES = 300;
const MAX_DEPENDENCIES = 100;
const MAX_SCRIPTS = 40;
const MAX_VALUE_LENGTH = 200;

const INPUT = Type.Object(
  {
    path: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1024,
        description: "A sub-project folder relative to the workspace root, e.g. 'packages/web'. Default: the project root.",
      }),
    ),
    depth: Type.Optional(
      Type.Integer({
        minimum: MIN_DEPTH,
        maximum: MAX_DEPTH,
        description: `Levels of the file tree to print, ${MIN_DEPTH} to ${MAX_DEPTH}. Default ${DEFAULT_DEPTH}.`,
      }),
    ),
  },
  { additionalProperties: false },
);

function limitRecord(record: Readonly<Record<string, string>>, max: number): { kept: Record<string, string>; omitted: number } {
  const names = Object.keys(record).sort();
  const kept: Record<string, string> = {};
  for (const name of names.slice(0, max)) {
    const value = record[name] ?? '';
    kept[name] = value.length > MAX_VALUE_LENGTH ? `${value.slice(0, MAX_VALUE_LENGTH)}…` : value;
  }
  return { kept, omitted: Math.max(0, names.length - max) };
}

/**
 * Creates the `project_info` tool: what a project is built with and how it is laid out, for a
 * model starting a task.
 *
 * - Frameworks from marker files and dependencies: Next.js (`next.config.*`), NestJS
 *   (`nest-cli.json`), Express (dependency), Vite (`vite.config.*`), Remix (`remix.config.*` or
 *   `@remix-run/*`), Astro (`astro.config.*`), SvelteKit (`@sveltejs/kit`, with `svelte.config.*`
 *   as further evidence), Nuxt (`nuxt.config.*`); tools: TypeScript, pnpm/Yarn/npm/Bun lockfiles,
 *   Turborepo, Nx, Vitest, Jest, ESLint, Prettier, Biome, Docker. Each comes with its evidence.
 * - `package.json`: name, version, package manager, scripts (at most 40), dependencies and
 *   devDependencies (name → range, at most 100 each, by name). It is opened without following a
 *   symlink; a broken one is a warning, not a failure.
 * - The file tree down to `depth` levels (default 2; 0 becomes 1, 9 becomes 4 instead of being
 *   refused), at most 300 entries. Sensitive folders and secret files are left out; dependency,
 *   VCS, build, cache and storage folders are shown without their contents; symlinks are never
 *   followed.
 * - The folder is `projectRoot` (default the workspace root) or the model's `path`. The filesystem
 *   root is refused: `Workspace.at` refuses it as a workspace, and this tool refuses it as
 *   `projectRoot` on every call, as it refuses a folder that no longer exists.
 *
 * Failure codes: `UNKNOWN_ARGUMENT`, `INVALID_DEPTH`, `INVALID_PATH`, `PATH_OUTSIDE_WORKSPACE`,
 * `SENSITIVE_PATH`, `NOT_FOUND`, `NOT_A_DIRECTORY`, `FILESYSTEM_ROOT_REFUSED`, `PROJECT_ROOT_NOT_FOUND`,
 * `PROJECT_UNREADABLE`.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a missing workspace or a `projectRoot` that is not a non-empty string.
 * @example
 * const registry = new ToolRegistry();
 * registry.register(projectInfoTool({ workspace: Workspace.at('/srv/project') }));
 * await registry.call('project_info', { depth: 3 }, context);
 */
export function projectInfoTool(options: ProjectInfoToolOptions): ToolDefinition<ProjectInfoArgs> {
  if (!(options?.workspace instanceof Workspace)) {
    throw new MilpaError('projectInfoTool: workspace must be a Workspace (Workspace.at(folder)): the tool reads nowhere else.', {
      code: 'INVALID_ARGUMENT',
    });
  }
  const { workspace, projectRoot } = options;
  if (projectRoot !== undefined && (typeof projectRoot !== 'string' || projectRoot.trim() === '')) {
    throw new MilpaError('projectInfoTool: projectRoot must be a non-empty folder path.', { code: 'INVALID_ARGUMENT' });
  }
  const described = projectRoot === undefined ? workspace.root : isAbsolute(projectRoot) ? projectRoot : join(workspace.root, projectRoot);

  return defineLifecycleTool<typeof INPUT, PlannedInfo, GatheredInfo>({
    name: 'project_info',
    title: 'Project info',
    description:
      `Call this first on a new task: describes the project at ${described} (workspace root ${workspace.root}) — ` +
      'frameworks (Next.js, NestJS, Express, Vite, Remix, Astro, SvelteKit, Nuxt), tools (TypeScript, package manager, ' +
      'turbo, test runners, linters, Docker), package.json scripts and dependencies, and the file tree (depth 1–4, default 2). ' +
      "Pass path (relative to the workspace root, e.g. 'packages/web') to describe a sub-project.",
    input: INPUT,
    scopes: options.scopes ?? ['workspace:read'],
    mutating: false,
    clamps: { depth: [MIN_DEPTH, MAX_DEPTH] },
    routing: {
      intents: ['describe', 'inspect', 'explore', 'overview', 'detect'],
      domains: ['project', 'code', 'workspace', 'files'],
      tags: ['framework', 'dependencies', 'package.json', 'file-tree', 'stack', 'read-only'],
      examples: ['what framework does this project use?', 'show me the project structure', 'which dependencies are installed?'],
    },

    plan: async (args) => {
      const unknown = rejectUnknownArguments(args, ARGUMENT_NAMES);
      if (unknown !== null) return { result: unknown };
      const depth = args.depth ?? DEFAULT_DEPTH;
      if (typeof depth !== 'number' || !Number.isFinite(depth)) {
        return {
          result: failure('INVALID_DEPTH', `depth must be a whole number from ${MIN_DEPTH} to ${MAX_DEPTH}, got ${JSON.stringify(depth)}.`),
        };
      }
      const folder = await resolveProjectRoot(workspace, projectRoot, args.path);
      // Clamped here too, for callers that run the handler without the pipeline's clamps.
      return { input: { folder, depth: Math.min(MAX_DEPTH, Math.max(MIN_DEPTH, Math.trunc(depth))) } };
    },

    perform: async ({ folder, depth }) => {
      let names: string[];
      try {
        names = await readdir(folder.absolute);
      } catch (error) {
        throw new ToolError('PROJECT_UNREADABLE', `The project folder '${folder.relative}' could not be read.`, {
          details: { reason: (error as NodeJS.ErrnoException).code ?? 'unknown' },
        });
      }
      const reading = await readPackageManifest(workspace, folder);
      const tree = await printFileTree(workspace, folder.absolute, depth, MAX_TREE_ENTRIES);
      return { names, reading, tree };
    },

    complete: ({ names, reading, tree }, { folder, depth }) => {
      const { manifest, problem } = reading;
      const stack = detectProjectStack(names, manifest);
      const scripts = limitRecord(manifest?.scripts ?? {}, MAX_SCRIPTS);
      const dependencies = limitRecord(manifest?.dependencies ?? {}, MAX_DEPENDENCIES);
      const devDependencies = limitRecord(manifest?.devDependencies ?? {}, MAX_DEPENDENCIES);
      const data: ProjectInfoData = {
        root: folder.absolute,
        path: folder.relative,
        name: manifest?.name ?? null,
        version: manifest?.version ?? null,
        package_manager: stack.packageManager,
        frameworks: stack.frameworks,
        tools: stack.tools,
        scripts: scripts.kept,
        dependencies: dependencies.kept,
        dev_dependencies: devDependencies.kept,
        depth,
        tree: tree.text,
      };
      const warnings: string[] = [];
      if (manifest === null && problem === null) warnings.push('No package.json in this folder: dependencies and scripts are empty.');
      if (problem !== null) warnings.push(problem);
      if (scripts.omitted > 0) warnings.push(`${scripts.omitted} more scripts not shown.`);
      if (dependencies.omitted > 0) warnings.push(`${dependencies.omitted} more dependencies not shown.`);
      if (devDependencies.omitted > 0) warnings.push(`${devDependencies.omitted} more devDependencies not shown.`);
      if (tree.truncated)
        warnings.push(`The file tree stopped at ${MAX_TREE_ENTRIES} entries: pass a smaller depth or a sub-folder as path.`);
      return success(
        data,
        {
          path: folder.relative,
          tree_entries: tree.entries,
          tree_truncated: tree.truncated,
          dependencies_omitted: dependencies.omitted,
          dev_dependencies_omitted: devDependencies.omitted,
        },
        warnings,
      );
    },
  }) as ToolDefinition<ProjectInfoArgs>;
}
