import { ToolContext, mutabilityOf } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_NAMES, DEFAULT_BUILTIN_TOOLS, builtinTools, type BuiltinToolsOptions } from './builtin-tools.js';
import { betterSqlite3Database } from './tools/db-query/better-sqlite3-database.js';
import type { CodeSearchData } from './tools/code-search/code-search-tool.js';
import type { FileReadData } from './tools/file-read/file-read-tool.js';

let root: string;
let reader: Database.Database;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'milpa-builtin-tools-')));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'server.ts'), 'const port = 3000;\nconst host = "localhost";\nexport { port, host };\n');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'demo', dependencies: { express: '^4.0.0' } }));
  const file = join(root, 'data.sqlite');
  const writer = new Database(file);
  writer.exec('CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)');
  writer.close();
  reader = new Database(file, { readonly: true, fileMustExist: true });
});

afterAll(() => {
  reader.close();
  rmSync(root, { recursive: true, force: true });
});

const database = () => ({ database: betterSqlite3Database(reader), dialect: 'sqlite' as const });

describe('builtinTools', () => {
  describe('selection', () => {
    it('builds only the three read-only tools by default', () => {
      const set = builtinTools({ workspaceRoot: root });
      expect(set.tools.map((tool) => tool.name)).toEqual(['code_search', 'file_read', 'project_info']);
      expect(DEFAULT_BUILTIN_TOOLS).toEqual(['code_search', 'file_read', 'project_info']);
      for (const tool of set.tools) expect(mutabilityOf(tool)).toBe('read_only');
      expect(set.workspace.root).toBe(root);
    });

    it('builds every tool named, in a fixed order, each with its declared mutability and scopes', () => {
      const set = builtinTools({ workspaceRoot: root, tools: [...BUILTIN_TOOL_NAMES].reverse(), database: database() });
      expect(set.tools.map((tool) => tool.name)).toEqual([...BUILTIN_TOOL_NAMES]);
      const byName = Object.fromEntries(set.tools.map((tool) => [tool.name, tool]));
      expect(Object.fromEntries(set.tools.map((tool) => [tool.name, mutabilityOf(tool)]))).toEqual({
        code_search: 'read_only',
        file_read: 'read_only',
        project_info: 'read_only',
        file_write: 'mutating',
        file_edit: 'mutating',
        shell_exec: 'depends_on_arguments',
        http_request: 'depends_on_arguments',
        db_query: 'read_only',
        zip_package: 'mutating',
      });
      expect(byName['file_write']?.scopes).toEqual(['workspace:write']);
      expect(byName['shell_exec']?.scopes).toEqual(['shell:exec']);
      expect(byName['db_query']?.scopes).toEqual(['db:read']);
      for (const tool of set.tools) expect(tool.routing?.intents.length).toBeGreaterThan(0);
    });

    it('passes each tool its settings', () => {
      const set = builtinTools({
        workspaceRoot: root,
        tools: ['file_read', 'file_write', 'shell_exec'],
        files: { readScopes: ['docs:read'], writeScopes: ['docs:write'] },
        shell: { allowlist: ['wc'] },
      });
      expect(set.tools.map((tool) => tool.scopes)).toEqual([['docs:read'], ['docs:write'], ['shell:exec']]);
      expect(set.tools[2]?.description).toContain('wc');
      expect(set.tools[2]?.description).not.toContain('hostname');
    });

    it('lets file_write create PHP files only when files.allowPhpFiles is set', () => {
      const write = (files: BuiltinToolsOptions['files']) => builtinTools({ workspaceRoot: root, tools: ['file_write'], files }).tools[0];
      expect(write(undefined)?.description).toContain('PHP files');
      expect(write({ allowPhpFiles: true })?.description).not.toContain('PHP files');
    });
  });

  describe('bad options are refused with INVALID_ARGUMENT', () => {
    it.each<[string, Partial<BuiltinToolsOptions>, RegExp]>([
      [
        'an unknown tool name',
        { tools: ['file_read', 'rm_rf' as 'file_read'] },
        /"rm_rf" is not a built-in tool; the built-in tools are code_search, file_read/,
      ],
      ['a repeated name', { tools: ['file_read', 'file_read'] }, /more than once/],
      ['an empty selection', { tools: [] }, /non-empty list/],
      ['settings of a tool not selected', { shell: { allowlist: ['ls'] } }, /shell is set but shell_exec is not in tools/],
      [
        'file settings without any file tool',
        { tools: ['code_search'], files: { readScopes: ['x'] } },
        /files is set but file_read \/ file_write \/ file_edit are not in tools/,
      ],
      ['db_query without a database', { tools: ['db_query'] }, /db_query needs database/],
      ['a workspace root that does not exist', { workspaceRoot: join(tmpdir(), 'milpa-no-such-folder-0f3a') }, /does not exist/],
      ['the filesystem root', { workspaceRoot: '/' }, /must not be the filesystem root/],
      ["a tool's own invalid setting", { tools: ['shell_exec'], shell: { allowlist: ['rm'] } }, /never runs/],
    ])('%s', (_name, options, message) => {
      expect(() => builtinTools({ workspaceRoot: root, ...options })).toThrow(message);
    });

    it('refuses options that are not an object', () => {
      expect(() => builtinTools(undefined as unknown as BuiltinToolsOptions)).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    });
  });

  describe('through a ToolRegistry', () => {
    it('searches and reads with paging over the workspace', async () => {
      const registry = new ToolRegistry({ tools: builtinTools({ workspaceRoot: root }).tools });
      const context = ToolContext.cli();
      const found = await registry.call('code_search', { pattern: 'const', limit: 1 }, context);
      expect(found.success).toBe(true);
      const page = found.data as CodeSearchData;
      expect(page.matches).toEqual([{ file: 'src/server.ts', line: 1, text: 'const port = 3000;' }]);
      expect(page.next_offset).toBe(1);

      const read = await registry.call('file_read', { path: 'src/server.ts', offset: 2, limit: 1 }, context);
      expect((read.data as FileReadData).content).toBe('const host = "localhost";\n');
      expect((read.data as FileReadData).next_offset).toBe(3);
    });

    it('lets file_edit change a file file_read read in the same run (the two share one ledger)', async () => {
      const set = builtinTools({ workspaceRoot: root, tools: ['file_read', 'file_edit'] });
      const registry = new ToolRegistry({ tools: set.tools });
      const context = ToolContext.cli().with({ runId: await registry.startRun() });
      const before = await registry.call('file_edit', { path: 'src/server.ts', old_str: '3000', new_str: '3001' }, context);
      expect(before.meta['code']).toBe('NOT_READ_IN_RUN');
      await registry.call('file_read', { path: 'src/server.ts' }, context);
      const edited = await registry.call('file_edit', { path: 'src/server.ts', old_str: '3000', new_str: '3001' }, context);
      expect(edited.success).toBe(true);
      expect(readFileSync(join(root, 'src', 'server.ts'), 'utf8')).toContain('port = 3001');
    });
  });
});
