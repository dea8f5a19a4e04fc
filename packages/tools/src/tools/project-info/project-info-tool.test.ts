import { ToolContext, type ToolResult, unsupportedCaller, type ToolDefinition } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../sandbox/workspace.js';
import { projectInfoTool, type ProjectInfoArgs, type ProjectInfoData, type ProjectInfoToolOptions } from './project-info-tool.js';

let root: string;
let outside: string;

async function writeTree(base: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
}

const manifest = (fields: Record<string, unknown>): string => JSON.stringify({ name: 'app', version: '1.0.0', ...fields });

function makeTool(options: Partial<ProjectInfoToolOptions> = {}): ToolDefinition<ProjectInfoArgs> {
  return projectInfoTool({ workspace: Workspace.at(root), ...options });
}

function invoke(tool: ToolDefinition<ProjectInfoArgs>, args: Record<string, unknown> = {}): Promise<ToolResult> {
  return Promise.resolve(
    tool.handler(args as ProjectInfoArgs, { context: ToolContext.cli(), signal: new AbortController().signal, caller: unsupportedCaller }),
  ) as Promise<ToolResult>;
}

function dataOf(result: ToolResult): ProjectInfoData {
  expect(result.error).toBeNull();
  expect(result.success).toBe(true);
  return result.data as ProjectInfoData;
}

async function describeProject(
  args: Record<string, unknown> = {},
  options: Partial<ProjectInfoToolOptions> = {},
): Promise<ProjectInfoData> {
  return dataOf(await invoke(makeTool(options), args));
}

const namesOf = (items: readonly { name: string }[]): string[] => items.map((item) => item.name);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'milpa-project-info-'));
  outside = await mkdtemp(join(tmpdir(), 'milpa-project-info-outside-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('projectInfoTool', () => {
  describe('definition', () => {
    it('tells the model to call it first and names the workspace root', () => {
      const tool = makeTool();
      expect(tool.name).toBe('project_info');
      expect(tool.description).toContain('Call this first');
      expect(tool.description).toContain(Workspace.at(root).root);
      expect(tool.scopes).toEqual(['workspace:read']);
      expect(tool.mutating).toBe(false);
      expect(tool.inputSchema['additionalProperties']).toBe(false);
      expect(tool.routing?.domains).toContain('project');
      expect(tool.routing?.examples.length).toBeGreaterThan(0);
    });

    it('uses the scopes it is given', () => {
      expect(makeTool({ scopes: ['project:read'] }).scopes).toEqual(['project:read']);
    });

    it('throws INVALID_ARGUMENT without a workspace or with an empty projectRoot', () => {
      expect(() => projectInfoTool({} as ProjectInfoToolOptions)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      expect(() => makeTool({ projectRoot: ' ' })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });

  describe('framework detection', () => {
    const cases: ReadonlyArray<readonly [framework: string, files: Record<string, string>, evidence: string]> = [
      ['Next.js', { 'next.config.mjs': 'export default {}' }, 'next.config.mjs'],
      ['NestJS', { 'nest-cli.json': '{}' }, 'nest-cli.json'],
      ['Express', { 'package.json': manifest({ dependencies: { express: '^4.19.0' } }) }, 'dependency express ^4.19.0'],
      ['Vite', { 'vite.config.ts': 'export default {}' }, 'vite.config.ts'],
      ['Remix', { 'remix.config.js': 'module.exports = {}' }, 'remix.config.js'],
      ['Remix', { 'package.json': manifest({ dependencies: { '@remix-run/node': '^2.0.0' } }) }, 'dependency @remix-run/node ^2.0.0'],
      ['Astro', { 'astro.config.mjs': 'export default {}' }, 'astro.config.mjs'],
      [
        'SvelteKit',
        { 'svelte.config.js': 'export default {}', 'package.json': manifest({ devDependencies: { '@sveltejs/kit': '^2.0.0' } }) },
        'svelte.config.js',
      ],
      ['Nuxt', { 'nuxt.config.ts': 'export default {}' }, 'nuxt.config.ts'],
    ];

    it.each(cases)('detects %s from its marker', async (framework, files, evidence) => {
      await writeTree(root, files);
      const info = await describeProject();
      expect(namesOf(info.frameworks)).toEqual([framework]);
      expect(info.frameworks[0]?.evidence).toContain(evidence);
    });

    it('does not take a svelte.config.js without @sveltejs/kit for SvelteKit', async () => {
      await writeTree(root, {
        'svelte.config.js': 'export default {}',
        'package.json': manifest({ devDependencies: { svelte: '^5.0.0' } }),
      });
      expect((await describeProject()).frameworks).toEqual([]);
    });

    it('does not take a file that only starts like a marker for one', async () => {
      await writeTree(root, { 'next.config.backup': '', 'vite.config.ts.orig': '' });
      expect((await describeProject()).frameworks).toEqual([]);
    });

    it('reports several frameworks with files and dependencies as evidence', async () => {
      await writeTree(root, {
        'next.config.js': 'module.exports = {}',
        'package.json': manifest({ dependencies: { next: '15.1.0', express: '^4.0.0' } }),
      });
      const info = await describeProject();
      expect(info.frameworks).toEqual([
        { name: 'Next.js', evidence: ['next.config.js', 'dependency next 15.1.0'] },
        { name: 'Express', evidence: ['dependency express ^4.0.0'] },
      ]);
    });
  });

  describe('tool detection', () => {
    it('detects TypeScript, the lockfile, turbo, test runners, linters and Docker', async () => {
      await writeTree(root, {
        'tsconfig.json': '{}',
        'pnpm-lock.yaml': '',
        'turbo.json': '{}',
        'vitest.config.ts': '',
        'eslint.config.js': '',
        '.prettierrc': '{}',
        Dockerfile: 'FROM node:20',
        'package.json': manifest({ devDependencies: { jest: '^29.0.0' } }),
      });
      const info = await describeProject();
      expect(namesOf(info.tools)).toEqual(['TypeScript', 'pnpm', 'Turborepo', 'Vitest', 'Jest', 'ESLint', 'Prettier', 'Docker']);
      expect(info.package_manager).toBe('pnpm');
    });

    it('detects yarn and npm lockfiles and a tool configured in package.json', async () => {
      await writeTree(root, { 'yarn.lock': '', 'package.json': manifest({ prettier: { semi: false } }) });
      const yarn = await describeProject();
      expect(namesOf(yarn.tools)).toEqual(['Yarn', 'Prettier']);
      expect(yarn.tools[1]?.evidence).toEqual(['package.json "prettier"']);
      expect(yarn.package_manager).toBe('yarn');
      await rm(join(root, 'yarn.lock'));
      await writeTree(root, { 'package-lock.json': '{}' });
      expect((await describeProject()).package_manager).toBe('npm');
    });

    it('prefers the packageManager field over a lockfile', async () => {
      await writeTree(root, { 'package-lock.json': '{}', 'package.json': manifest({ packageManager: 'pnpm@10.0.0' }) });
      expect((await describeProject()).package_manager).toBe('pnpm');
    });
  });

  describe('package.json', () => {
    it('lists name, version, scripts, dependencies and devDependencies as name → range', async () => {
      await writeTree(root, {
        'package.json': manifest({
          scripts: { build: 'tsc', test: 'vitest run' },
          dependencies: { zod: '^3.23.0', '@hono/node-server': '^1.0.0', broken: 42 },
          devDependencies: { typescript: '5.9.3' },
        }),
      });
      const info = await describeProject();
      expect(info.name).toBe('app');
      expect(info.version).toBe('1.0.0');
      expect(info.scripts).toEqual({ build: 'tsc', test: 'vitest run' });
      expect(info.dependencies).toEqual({ '@hono/node-server': '^1.0.0', zod: '^3.23.0' });
      expect(Object.keys(info.dependencies)).toEqual(['@hono/node-server', 'zod']);
      expect(info.dev_dependencies).toEqual({ typescript: '5.9.3' });
    });

    it('keeps at most 100 dependencies and counts the rest', async () => {
      const dependencies = Object.fromEntries(
        Array.from({ length: 130 }, (_, index) => [`dep-${String(index).padStart(3, '0')}`, '^1.0.0']),
      );
      await writeTree(root, { 'package.json': manifest({ dependencies }) });
      const result = await invoke(makeTool());
      const info = dataOf(result);
      expect(Object.keys(info.dependencies)).toHaveLength(100);
      expect(info.dependencies['dep-099']).toBe('^1.0.0');
      expect(info.dependencies['dep-100']).toBeUndefined();
      expect(result.meta['dependencies_omitted']).toBe(30);
      expect((result.meta['warnings'] as string[]).join(' ')).toContain('30 more dependencies');
    });

    it('warns instead of failing when package.json is missing or invalid', async () => {
      const missing = await invoke(makeTool());
      expect(dataOf(missing).dependencies).toEqual({});
      expect((missing.meta['warnings'] as string[]).join(' ')).toContain('No package.json');
      await writeTree(root, { 'package.json': '{ not json' });
      const invalid = await invoke(makeTool());
      expect(dataOf(invalid).name).toBeNull();
      expect((invalid.meta['warnings'] as string[]).join(' ')).toContain('not valid JSON');
    });

    it('does not read a package.json that is a symlink out of the workspace', async () => {
      await writeTree(outside, { 'package.json': manifest({ name: 'outside-secret', dependencies: { leaked: '1.0.0' } }) });
      await symlink(join(outside, 'package.json'), join(root, 'package.json'));
      const result = await invoke(makeTool());
      const info = dataOf(result);
      expect(info.name).toBeNull();
      expect(info.dependencies).toEqual({});
      expect((result.meta['warnings'] as string[]).join(' ')).toContain('package.json was not read');
    });
  });

  describe('file tree', () => {
    beforeEach(async () => {
      await writeTree(root, {
        'package.json': manifest({}),
        'src/index.ts': '',
        'src/lib/util.ts': '',
        'src/lib/deep/deeper/deepest/leaf.ts': '',
        'node_modules/left-pad/index.js': '',
        'dist/index.js': '',
        'build/out.js': '',
        'storage/app.db': '',
        '.cache/x': '',
        '.git/HEAD': '',
        '.ssh/id_rsa': '',
        '.env': 'SECRET=1',
        'certs/server.pem': '',
      });
    });

    it('prints folders first, two levels by default, and lists skipped folders without their contents', async () => {
      const info = await describeProject();
      expect(info.depth).toBe(2);
      expect(info.tree.split('\n')).toEqual([
        '.cache/ (not listed)',
        'build/ (not listed)',
        'certs/',
        'dist/ (not listed)',
        'node_modules/ (not listed)',
        'src/',
        '  lib/',
        '  index.ts',
        'storage/ (not listed)',
        'package.json',
      ]);
    });

    it('leaves sensitive folders and secret files out entirely', async () => {
      const { tree } = await describeProject({ depth: 4 });
      expect(tree).not.toContain('.git');
      expect(tree).not.toContain('.ssh');
      expect(tree).not.toContain('id_rsa');
      expect(tree).not.toContain('.env');
      expect(tree).not.toContain('server.pem');
      expect(tree).not.toContain('left-pad');
    });

    it('clamps depth 0 to 1 and 9 to 4 instead of refusing', async () => {
      const shallow = await describeProject({ depth: 0 });
      expect(shallow.depth).toBe(1);
      expect(shallow.tree).not.toContain('index.ts');
      const deep = await describeProject({ depth: 9 });
      expect(deep.depth).toBe(4);
      expect(deep.tree).toContain('      deeper/');
      expect(deep.tree).not.toContain('deepest/');
    });

    it('shows symlinks without following them', async () => {
      await writeTree(outside, { 'secret-project/file.ts': '' });
      await symlink(join(outside, 'secret-project'), join(root, 'linked'));
      const { tree } = await describeProject({ depth: 4 });
      expect(tree).toContain('linked (symlink)');
      expect(tree).not.toContain('file.ts');
    });

    it('stops at 300 entries and says so', async () => {
      await writeTree(
        root,
        Object.fromEntries(Array.from({ length: 350 }, (_, index) => [`many/f${String(index).padStart(3, '0')}.ts`, ''])),
      );
      const result = await invoke(makeTool());
      const info = dataOf(result);
      expect(info.tree.split('\n')).toHaveLength(301);
      expect(info.tree).toContain('stopped at 300 entries');
      expect(result.meta['tree_truncated']).toBe(true);
    });
  });

  describe('folders', () => {
    it('describes a sub-project given as path', async () => {
      await writeTree(root, {
        'packages/web/package.json': manifest({ name: 'web', dependencies: { astro: '^5.0.0' } }),
        'packages/web/src/a.ts': '',
      });
      const info = await describeProject({ path: 'packages/web' });
      expect(info.path).toBe('packages/web');
      expect(info.name).toBe('web');
      expect(namesOf(info.frameworks)).toEqual(['Astro']);
      expect(info.tree).toContain('src/');
    });

    it('describes the projectRoot it was built with, relative or absolute', async () => {
      await writeTree(root, { 'apps/api/nest-cli.json': '{}' });
      expect(namesOf((await describeProject({}, { projectRoot: 'apps/api' })).frameworks)).toEqual(['NestJS']);
      expect(namesOf((await describeProject({}, { projectRoot: join(root, 'apps/api') })).frameworks)).toEqual(['NestJS']);
    });

    it('returns FILESYSTEM_ROOT_REFUSED when projectRoot is the filesystem root', async () => {
      const result = await invoke(makeTool({ projectRoot: parse(root).root }));
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('FILESYSTEM_ROOT_REFUSED');
      expect(result.error).toContain('filesystem root');
    });

    it('returns FILESYSTEM_ROOT_REFUSED when projectRoot reaches the filesystem root through a symlink', async () => {
      await symlink(parse(root).root, join(outside, 'to-root'));
      expect((await invoke(makeTool({ projectRoot: join(outside, 'to-root') }))).meta['code']).toBe('FILESYSTEM_ROOT_REFUSED');
    });

    it('refuses the filesystem root as a workspace before any tool can be built', () => {
      expect(() => Workspace.at(parse(root).root)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('filesystem root') }),
      );
    });

    it('returns PROJECT_ROOT_NOT_FOUND when the project root does not exist or has vanished', async () => {
      expect((await invoke(makeTool({ projectRoot: join(root, 'missing') }))).meta['code']).toBe('PROJECT_ROOT_NOT_FOUND');
      expect((await invoke(makeTool({ projectRoot: 'missing' }))).meta['code']).toBe('PROJECT_ROOT_NOT_FOUND');
      const tool = makeTool();
      await rm(root, { recursive: true, force: true });
      expect((await invoke(tool)).meta['code']).toBe('PROJECT_ROOT_NOT_FOUND');
    });

    it('returns PATH_OUTSIDE_WORKSPACE for a projectRoot or path outside the workspace', async () => {
      expect((await invoke(makeTool({ projectRoot: outside }))).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      expect((await invoke(makeTool(), { path: '..' })).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      expect((await invoke(makeTool(), { path: '/etc' })).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('returns SENSITIVE_PATH, NOT_FOUND and NOT_A_DIRECTORY for unusable paths', async () => {
      await writeTree(root, { '.ssh/config': '', 'file.txt': '' });
      expect((await invoke(makeTool(), { path: '.ssh' })).meta['code']).toBe('SENSITIVE_PATH');
      expect((await invoke(makeTool(), { path: 'nope' })).meta['code']).toBe('NOT_FOUND');
      expect((await invoke(makeTool(), { path: 'file.txt' })).meta['code']).toBe('NOT_A_DIRECTORY');
    });

    it('returns UNKNOWN_ARGUMENT for an argument it does not know', async () => {
      const result = await invoke(makeTool(), { depht: 3 });
      expect(result.meta['code']).toBe('UNKNOWN_ARGUMENT');
    });
  });

  describe('through a ToolRegistry', () => {
    it('describes the project and clamps depth through the governed pipeline', async () => {
      await writeTree(root, {
        'next.config.ts': '',
        'a/b/c/d/e/f.ts': '',
        'package.json': manifest({ dependencies: { next: '^15.0.0' } }),
      });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(makeTool());
      const deep = await registry.call('project_info', { depth: 9 });
      expect(deep.success).toBe(true);
      const info = deep.data as ProjectInfoData;
      expect(namesOf(info.frameworks)).toEqual(['Next.js']);
      expect(info.depth).toBe(4);
      expect(info.tree).toContain('      d/');
      const shallow = await registry.call('project_info', { depth: 0 });
      expect((shallow.data as ProjectInfoData).depth).toBe(1);
    });

    it('refuses a filesystem-root projectRoot through the governed pipeline', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(makeTool({ projectRoot: '/' }));
      const result = await registry.call('project_info', {});
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('FILESYSTEM_ROOT_REFUSED');
    });
  });
});
