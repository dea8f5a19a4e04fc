import { ToolContext, type ToolResult, unsupportedCaller, type ToolDefinition } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../sandbox/workspace.js';
import {
  codeSearchTool,
  type CodeSearchArgs,
  type CodeSearchData,
  type CodeSearchMatch,
  type CodeSearchToolOptions,
} from './code-search-tool.js';

let root: string;
let outside: string;

async function writeTree(base: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
}

function makeTool(options: Partial<CodeSearchToolOptions> = {}): ToolDefinition<CodeSearchArgs> {
  return codeSearchTool({ workspace: Workspace.at(root), ...options });
}

function invoke(
  tool: ToolDefinition<CodeSearchArgs>,
  args: Record<string, unknown>,
  signal = new AbortController().signal,
): Promise<ToolResult> {
  return Promise.resolve(
    tool.handler(args as unknown as CodeSearchArgs, { context: ToolContext.cli(), signal, caller: unsupportedCaller }),
  ) as Promise<ToolResult>;
}

function dataOf(result: ToolResult): CodeSearchData {
  expect(result.error).toBeNull();
  expect(result.success).toBe(true);
  return result.data as CodeSearchData;
}

async function search(args: Record<string, unknown>, options: Partial<CodeSearchToolOptions> = {}): Promise<CodeSearchData> {
  return dataOf(await invoke(makeTool(options), args));
}

const places = (matches: readonly CodeSearchMatch[]): string[] => matches.map((match) => `${match.file}:${match.line}`);

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'milpa-code-search-'));
  outside = await mkdtemp(join(tmpdir(), 'milpa-code-search-outside-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('codeSearchTool', () => {
  describe('definition', () => {
    it('names the workspace root in its description and declares a read-only, routed tool', () => {
      const tool = makeTool();
      expect(tool.name).toBe('code_search');
      expect(tool.description).toContain(Workspace.at(root).root);
      expect(tool.scopes).toEqual(['workspace:read']);
      expect(tool.mutating).toBe(false);
      expect(tool.inputSchema['additionalProperties']).toBe(false);
      expect(tool.routing?.intents).toContain('search');
      expect(tool.routing?.examples.length).toBeGreaterThan(0);
    });

    it('uses the scopes it is given', () => {
      expect(makeTool({ scopes: ['code:read'] }).scopes).toEqual(['code:read']);
    });

    it('throws INVALID_ARGUMENT when no workspace is given', () => {
      expect(() => codeSearchTool({} as CodeSearchToolOptions)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });
  });

  describe('matching', () => {
    it('matches the pattern literally by default', async () => {
      await writeTree(root, { 'a.ts': 'const a = b.c;\nconst x = bxc;\n' });
      const literal = await search({ pattern: 'b.c' });
      expect(literal.matches).toEqual([{ file: 'a.ts', line: 1, text: 'const a = b.c;' }]);
      expect(literal.total).toBe(1);
      expect(literal.truncated).toBe(false);
      expect(literal.next_offset).toBeUndefined();
    });

    it('treats the pattern as a JavaScript regular expression when is_regex is true', async () => {
      await writeTree(root, { 'a.ts': 'const a = b.c;\nconst x = bxc;\nexport async function go() {}\n' });
      expect(places((await search({ pattern: 'b.c', is_regex: true })).matches)).toEqual(['a.ts:1', 'a.ts:2']);
      expect(places((await search({ pattern: '^export (async )?function (?<name>\\w+)', is_regex: true })).matches)).toEqual(['a.ts:3']);
    });

    it('searches regex metacharacters literally when is_regex is false', async () => {
      await writeTree(root, { 'a.ts': 'call(a+b)\ncall(aab)\n' });
      expect(places((await search({ pattern: '(a+b)' })).matches)).toEqual(['a.ts:1']);
    });

    it('returns INVALID_REGEX with the engine message when the regex does not parse', async () => {
      const result = await invoke(makeTool(), { pattern: 'foo(bar', is_regex: true });
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('INVALID_REGEX');
      expect(result.error).toContain('not a valid JavaScript regular expression');
      expect(result.error).toContain('Unterminated group');
    });

    it('returns PATTERN_TOO_LONG when a regex exceeds 500 characters', async () => {
      const result = await invoke(makeTool(), { pattern: 'a'.repeat(501), is_regex: true });
      expect(result.meta['code']).toBe('PATTERN_TOO_LONG');
    });

    it('returns REGEX_TIMEOUT instead of hanging when a pattern backtracks catastrophically', async () => {
      // 2^40 backtracking steps: without the guard this line alone would block for hours.
      await writeTree(root, { 'a.txt': `${'a'.repeat(40)}!\n` });
      const started = Date.now();
      const result = await invoke(makeTool({ regexTimeoutMs: 100 }), { pattern: '^(a+)+$', is_regex: true });
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe('REGEX_TIMEOUT');
      expect(result.error).toContain('backtracks');
      // A generous bound: the guard stops the match; only a missing guard could take this long.
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('keeps working after a regex timed out', async () => {
      await writeTree(root, { 'a.txt': `${'a'.repeat(40)}!\nneedle\n` });
      const tool = makeTool({ regexTimeoutMs: 100 });
      expect((await invoke(tool, { pattern: '^(a+)+$', is_regex: true })).meta['code']).toBe('REGEX_TIMEOUT');
      expect(places(dataOf(await invoke(tool, { pattern: 'ne+dle', is_regex: true })).matches)).toEqual(['a.txt:2']);
    });

    it('matches a regex on the first 4096 characters of a long line, but a literal on the whole line', async () => {
      await writeTree(root, { 'min.js': `${'x'.repeat(9000)}NEEDLE${'y'.repeat(500)}\n` });
      expect((await search({ pattern: 'NEEDLE', is_regex: true })).total).toBe(0);
      const literal = await search({ pattern: 'NEEDLE' });
      expect(literal.total).toBe(1);
      const text = literal.matches[0]?.text ?? '';
      expect(text).toContain('NEEDLE');
      expect(text.startsWith('…')).toBe(true);
      expect(text.length).toBeLessThanOrEqual(242);
    });

    it('orders rows by file path, then line', async () => {
      await writeTree(root, { 'b.ts': 'hit\n', 'a/z.ts': 'hit\n', 'a.ts': 'x\nhit\nhit\n', 'A.ts': 'hit\n' });
      expect(places((await search({ pattern: 'hit' })).matches)).toEqual(['A.ts:1', 'a.ts:2', 'a.ts:3', 'a/z.ts:1', 'b.ts:1']);
    });

    it('handles CRLF line endings and a byte-order mark', async () => {
      await writeTree(root, { 'w.txt': '\uFEFFfirst hit\r\nsecond\r\nthird hit\r\n' });
      const found = await search({ pattern: 'hit' });
      expect(found.matches.map((match) => [match.line, match.text])).toEqual([
        [1, 'first hit'],
        [3, 'third hit'],
      ]);
    });
  });

  describe('context_lines', () => {
    it('returns the lines before and after each match', async () => {
      await writeTree(root, { 'a.ts': 'one\ntwo\nthree hit\nfour\nfive\nsix\n' });
      const found = await search({ pattern: 'hit', context_lines: 2 });
      expect(found.matches).toEqual([
        { file: 'a.ts', line: 3, text: 'three hit', context: { before: ['one', 'two'], after: ['four', 'five'] } },
      ]);
    });

    it('returns fewer context lines at the edges of a file', async () => {
      await writeTree(root, { 'a.ts': 'hit first\nmiddle\nhit last\n' });
      const found = await search({ pattern: 'hit', context_lines: 3 });
      expect(found.matches.map((match) => match.context)).toEqual([
        { before: [], after: ['middle', 'hit last'] },
        { before: ['hit first', 'middle'], after: [] },
      ]);
    });

    it('omits context when context_lines is 0 and clamps a value above 5 to 5', async () => {
      await writeTree(root, { 'a.ts': `${Array.from({ length: 20 }, (_, index) => `line ${index}`).join('\n')}\n` });
      expect((await search({ pattern: 'line 10' })).matches[0]?.context).toBeUndefined();
      const clamped = await search({ pattern: 'line 10', context_lines: 9 });
      expect(clamped.matches[0]?.context?.before).toHaveLength(5);
      expect(clamped.matches[0]?.context?.after).toHaveLength(5);
    });
  });

  describe('paging', () => {
    it('walks every row exactly once by following next_offset', async () => {
      const files: Record<string, string> = {};
      for (let file = 0; file < 12; file += 1) {
        files[`src/f${String(file).padStart(2, '0')}.ts`] =
          `${Array.from({ length: 10 }, (_, line) => `match ${file}-${line}`).join('\nfiller\n')}\n`;
      }
      await writeTree(root, files);
      const everything = await search({ pattern: 'match', limit: 200 });
      expect(everything.total).toBe(120);
      expect(everything.truncated).toBe(false);

      const seen: string[] = [];
      let offset: number | undefined = 0;
      let pages = 0;
      while (offset !== undefined) {
        const page: CodeSearchData = await search({ pattern: 'match', limit: 25, offset });
        expect(page.total).toBe(120);
        expect(page.truncated).toBe(page.next_offset !== undefined);
        seen.push(...places(page.matches));
        offset = page.next_offset;
        pages += 1;
      }
      expect(pages).toBe(5);
      expect(seen).toEqual(places(everything.matches));
      expect(new Set(seen).size).toBe(120);
    });

    it('cuts a page at 8192 bytes and continues it on the next page', async () => {
      await writeTree(root, { 'wide.txt': `${Array.from({ length: 100 }, (_, index) => `hit ${index} ${'w'.repeat(200)}`).join('\n')}\n` });
      const first = await search({ pattern: 'hit', limit: 200 });
      expect(Buffer.byteLength(JSON.stringify(first.matches))).toBeLessThanOrEqual(8192);
      expect(first.matches.length).toBeGreaterThan(10);
      expect(first.matches.length).toBeLessThan(100);
      expect(first.truncated).toBe(true);
      expect(first.next_offset).toBe(first.matches.length);
      const second = await search({ pattern: 'hit', limit: 200, offset: first.next_offset });
      expect(second.matches[0]?.line).toBe(first.matches.length + 1);
    });

    it('stops scanning at 1000 matching rows and says so', async () => {
      await writeTree(root, { 'many.txt': `${Array.from({ length: 1200 }, () => 'x').join('\n')}\n` });
      const result = await invoke(makeTool(), { pattern: 'x', offset: 990, limit: 50 });
      const found = dataOf(result);
      expect(found.total).toBe(1000);
      expect(found.matches).toHaveLength(10);
      expect(found.matches.at(-1)?.line).toBe(1000);
      expect(found.truncated).toBe(true);
      expect(found.next_offset).toBeUndefined();
      expect((result.meta['warnings'] as string[]).join(' ')).toContain('stopped at 1000');
    });

    it('returns INVALID_LIMIT and INVALID_OFFSET for paging out of range', async () => {
      expect((await invoke(makeTool(), { pattern: 'x', limit: 0 })).meta['code']).toBe('INVALID_LIMIT');
      expect((await invoke(makeTool(), { pattern: 'x', offset: -1 })).meta['code']).toBe('INVALID_OFFSET');
    });

    it('stops with partial, truncated results when the time budget runs out', async () => {
      await writeTree(root, { 'a.txt': 'hit\n', 'b.txt': 'hit\n', 'c.txt': 'hit\n' });
      let clock = 0;
      // Each reading of the clock moves it on by 40 ms against a 100 ms budget.
      const result = await invoke(makeTool({ timeBudgetMs: 100, now: () => (clock += 40) }), { pattern: 'hit' });
      const found = dataOf(result);
      expect(found.total).toBeLessThan(3);
      expect(found.truncated).toBe(true);
      expect((result.meta['warnings'] as string[]).join(' ')).toContain('stopped after 100 ms');
    });
  });

  describe('skipping', () => {
    it('skips dependency and VCS folders, large and binary files, and secret files', async () => {
      await writeTree(root, {
        'src/app.ts': 'token here\n',
        'node_modules/pkg/index.js': 'token here\n',
        '.git/config': 'token here\n',
        '.idea/workspace.xml': 'token here\n',
        '.env': 'token=here\n',
        '.env.local': 'token here\n',
        'keys/id_rsa': 'token here\n',
        'certs/server.pem': 'token here\n',
        'big.txt': Buffer.alloc(1024 * 1024 + 1, 'token here\n'),
        'image.bin': Buffer.concat([Buffer.from('token here\n'), Buffer.from([0, 1, 2])]),
      });
      const result = await invoke(makeTool(), { pattern: 'token' });
      expect(places(dataOf(result).matches)).toEqual(['src/app.ts:1']);
      expect(result.meta['skipped']).toMatchObject({ directories: 3, sensitive: 4, large: 1, binary: 1 });
    });

    it('searches a file just under 1 MiB', async () => {
      await writeTree(root, { 'edge.txt': Buffer.concat([Buffer.from('token\n'), Buffer.alloc(1024 * 1024 - 6, 'a')]) });
      expect((await search({ pattern: 'token' })).total).toBe(1);
    });

    it('searches inside node_modules when path names it explicitly', async () => {
      await writeTree(root, { 'node_modules/pkg/index.js': 'token\n' });
      expect(places((await search({ pattern: 'token', path: 'node_modules/pkg' })).matches)).toEqual(['node_modules/pkg/index.js:1']);
    });
  });

  describe('paths', () => {
    it('searches only the folder or file given in path', async () => {
      await writeTree(root, { 'src/a.ts': 'hit\n', 'src/b.ts': 'hit\n', 'lib/c.ts': 'hit\n' });
      expect(places((await search({ pattern: 'hit', path: 'src' })).matches)).toEqual(['src/a.ts:1', 'src/b.ts:1']);
      expect(places((await search({ pattern: 'hit', path: 'lib/c.ts' })).matches)).toEqual(['lib/c.ts:1']);
    });

    it('returns SENSITIVE_PATH for a path inside .ssh and for a secret file', async () => {
      await writeTree(root, { '.ssh/config': 'Host x\n', '.env': 'A=1\n' });
      const ssh = await invoke(makeTool(), { pattern: 'Host', path: '.ssh' });
      expect(ssh.meta['code']).toBe('SENSITIVE_PATH');
      expect((await invoke(makeTool(), { pattern: 'Host', path: '.ssh/config' })).meta['code']).toBe('SENSITIVE_PATH');
      expect((await invoke(makeTool(), { pattern: 'A', path: '.env' })).meta['code']).toBe('SENSITIVE_PATH');
    });

    it('returns PATH_OUTSIDE_WORKSPACE for .. and absolute paths', async () => {
      await writeTree(outside, { 'secret.txt': 'token\n' });
      expect((await invoke(makeTool(), { pattern: 'token', path: '..' })).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      expect((await invoke(makeTool(), { pattern: 'token', path: 'src/../../x' })).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      expect((await invoke(makeTool(), { pattern: 'token', path: outside })).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      expect((await invoke(makeTool(), { pattern: 'token', path: '/etc' })).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('returns NOT_FOUND for a path that does not exist', async () => {
      expect((await invoke(makeTool(), { pattern: 'x', path: 'missing' })).meta['code']).toBe('NOT_FOUND');
    });

    it('never searches through a symlink that points out of the workspace', async () => {
      await writeTree(outside, { 'secret.txt': 'token outside\n' });
      await writeTree(root, { 'inside.txt': 'token inside\n' });
      await symlink(outside, join(root, 'linked-folder'));
      await symlink(join(outside, 'secret.txt'), join(root, 'linked-file.txt'));
      const result = await invoke(makeTool(), { pattern: 'token' });
      expect(places(dataOf(result).matches)).toEqual(['inside.txt:1']);
      expect(result.meta['skipped']).toMatchObject({ symlinks: 2 });
      expect((await invoke(makeTool(), { pattern: 'token', path: 'linked-folder' })).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
      expect((await invoke(makeTool(), { pattern: 'token', path: 'linked-file.txt' })).meta['code']).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('does not follow a symlink inside the workspace either, so no file is searched twice', async () => {
      await writeTree(root, { 'src/a.ts': 'token\n' });
      await symlink(join(root, 'src'), join(root, 'alias'));
      expect(places((await search({ pattern: 'token' })).matches)).toEqual(['src/a.ts:1']);
    });
  });

  describe('arguments', () => {
    it('returns UNKNOWN_ARGUMENT for an argument it does not know', async () => {
      const result = await invoke(makeTool(), { pattern: 'x', regex: true });
      expect(result.meta['code']).toBe('UNKNOWN_ARGUMENT');
      expect(result.error).toContain("'regex'");
    });

    it('returns INVALID_PATTERN for an empty pattern', async () => {
      expect((await invoke(makeTool(), { pattern: '' })).meta['code']).toBe('INVALID_PATTERN');
    });

    it('returns SEARCH_ABORTED when the call is aborted', async () => {
      await writeTree(root, { 'a.txt': 'x\n' });
      const controller = new AbortController();
      controller.abort();
      expect((await invoke(makeTool(), { pattern: 'x' }, controller.signal)).meta['code']).toBe('SEARCH_ABORTED');
    });
  });

  describe('through a ToolRegistry', () => {
    it('searches, clamps context_lines and refuses an invalid regex through the governed pipeline', async () => {
      await writeTree(root, {
        'src/a.ts': `${Array.from({ length: 12 }, (_, index) => (index === 6 ? 'needle' : `line ${index}`)).join('\n')}\n`,
      });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(makeTool());
      const ok = await registry.call('code_search', { pattern: 'needle', context_lines: 9 });
      expect(ok.success).toBe(true);
      const found = ok.data as CodeSearchData;
      expect(places(found.matches)).toEqual(['src/a.ts:7']);
      expect(found.matches[0]?.context?.before).toHaveLength(5);
      const invalid = await registry.call('code_search', { pattern: '[', is_regex: true });
      expect(invalid.success).toBe(false);
      expect(invalid.meta['code']).toBe('INVALID_REGEX');
    });

    it('denies a caller without the workspace:read scope', async () => {
      await writeTree(root, { 'a.txt': 'needle\n' });
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(makeTool());
      const denied = await registry.call(
        'code_search',
        { pattern: 'needle' },
        new ToolContext({ channel: 'web', principal: 'user:1', scopes: ['http:request'] }),
      );
      expect(denied.success).toBe(false);
      expect(denied.meta['code']).toBe('FORBIDDEN');
    });
  });
});
