import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ToolContext, unsupportedCaller, type ToolDefinition, type ToolResult } from '@milpa/core';
import { ToolRegistry } from '@milpa/tool-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Workspace } from '../../sandbox/workspace.js';
import { checkOutputName } from './check-output-name.js';
import { zipPackageTool, type ZipPackageData } from './zip-package-tool.js';

type Args = { folder: string; output_name: string };

/** Reads a zip's central directory: entry names in stored order, with their contents. */
function readZip(path: string): Map<string, string> {
  const zip = readFileSync(path);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries = new Map<string, string>();
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error('bad central directory entry');
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    entries.set(name, (method === 8 ? inflateRawSync(data) : data).toString('utf8'));
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

let root: string;
let outside: string;
let output: string;
let workspace: Workspace;
let tool: ToolDefinition<Args>;

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'milpa-zip-ws-'));
  outside = mkdtempSync(join(tmpdir(), 'milpa-zip-outside-'));
  output = mkdtempSync(join(tmpdir(), 'milpa-zip-out-'));
  writeFileSync(join(outside, 'secret.txt'), 'outside the workspace');
  write('app/README.md', '# app');
  write('app/src/main.ts', 'export const x = 1;');
  write('app/src/util/b.ts', 'b');
  write('app/Z.txt', 'upper');
  write('app/.env', 'TOKEN=abc');
  write('app/.env.local', 'TOKEN=def');
  write('app/keys/server.pem', 'KEY');
  write('app/node_modules/dep/index.js', 'dep');
  write('app/.git/config', '[core]');
  write('app/notes.txt', 'notes');
  symlinkSync(join(outside, 'secret.txt'), join(root, 'app/link-out.txt'));
  symlinkSync(outside, join(root, 'app/dir-out'));
  symlinkSync(join(root, 'app/notes.txt'), join(root, 'app/link-in.txt'));
  write('other/a.txt', 'a');
  workspace = Workspace.at(root);
  tool = zipPackageTool({ workspace, outputDirectory: output });
});

afterAll(() => {
  for (const folder of [root, outside, output]) rmSync(folder, { recursive: true, force: true });
});

async function run(args: Args, definition: ToolDefinition<Args> = tool): Promise<ToolResult> {
  return (await definition.handler(args, {
    context: ToolContext.cli(),
    signal: new AbortController().signal,
    caller: unsupportedCaller,
  })) as ToolResult;
}

describe('zipPackageTool', () => {
  describe('definition', () => {
    it('declares a mutating tool with workspace:write, routing and a closed input schema', () => {
      expect(tool.name).toBe('zip_package');
      expect(tool.mutating).toBe(true);
      expect(tool.scopes).toEqual(['workspace:write']);
      expect(tool.inputSchema).toMatchObject({ additionalProperties: false, required: ['folder', 'output_name'] });
      expect(tool.routing?.intents).toContain('zip a folder');
      expect(zipPackageTool({ workspace, scopes: ['files:export'] }).scopes).toEqual(['files:export']);
    });

    it('throws INVALID_ARGUMENT for a limit that is not a positive whole number', () => {
      expect(() => zipPackageTool({ workspace, maxFiles: 0 })).toThrow(/maxFiles/);
      expect(() => zipPackageTool({ workspace, maxBytes: 1.5 })).toThrow(/maxBytes/);
    });
  });

  describe('zipping', () => {
    it('zips every safe file under a top-level folder, in a fixed order, and lists what it skipped', async () => {
      const result = await run({ folder: 'app', output_name: 'bundle' });
      expect(result.success).toBe(true);
      const data = result.data as ZipPackageData;
      expect(dirname(dirname(data.zip_path))).toBe(output);
      expect(data.zip_path.endsWith('/bundle.zip')).toBe(true);
      expect(data.bytes).toBe(statSync(data.zip_path).size);
      expect(statSync(data.zip_path).mode & 0o777).toBe(0o600);
      const entries = readZip(data.zip_path);
      expect([...entries.keys()]).toEqual([
        'bundle/README.md',
        'bundle/Z.txt',
        'bundle/notes.txt',
        'bundle/src/main.ts',
        'bundle/src/util/b.ts',
      ]);
      expect(entries.get('bundle/src/main.ts')).toBe('export const x = 1;');
      expect(data.files).toBe(5);
      expect(data.skipped.map((entry) => entry.path)).toEqual([
        'app/.env',
        'app/.env.local',
        'app/.git',
        'app/dir-out',
        'app/keys/server.pem',
        'app/link-in.txt',
        'app/link-out.txt',
        'app/node_modules',
      ]);
      const warnings = result.meta['warnings'] as string[];
      expect(warnings).toContain("Skipped 'app/.env': '.env' is a file that holds secrets.");
      expect(warnings.some((warning) => warning.startsWith("Skipped 'app/link-out.txt'") && warning.includes('symlink'))).toBe(true);
      expect(warnings.some((warning) => warning.startsWith("Skipped 'app/node_modules'"))).toBe(true);
      expect(JSON.stringify([...entries.values()])).not.toContain('outside the workspace');
    });

    it('writes each call in a new folder, so the same name never overwrites an earlier zip, with identical content', async () => {
      const first = (await run({ folder: 'app', output_name: 'same' })).data as ZipPackageData;
      const second = (await run({ folder: 'app', output_name: 'same' })).data as ZipPackageData;
      expect(first.zip_path).not.toBe(second.zip_path);
      expect(readFileSync(first.zip_path).equals(readFileSync(second.zip_path))).toBe(true);
    });

    it('writes a zip holding only the top-level folder, with a warning, for a folder of skipped files', async () => {
      const result = await run({ folder: 'app/keys', output_name: 'empty' });
      const data = result.data as ZipPackageData;
      expect(data.files).toBe(0);
      expect([...readZip(data.zip_path).keys()]).toEqual(['empty/']);
      expect(result.meta['warnings']).toContain('No files were zipped: the zip holds only its top-level folder.');
    });

    it("zips the whole workspace for '.' and writes to the OS temp folder by default", async () => {
      const result = await run({ folder: '.', output_name: 'all.zip' }, zipPackageTool({ workspace }));
      const data = result.data as ZipPackageData;
      try {
        expect(data.zip_path.startsWith(tmpdir())).toBe(true);
        expect(data.zip_path.endsWith('/all.zip')).toBe(true);
        expect([...readZip(data.zip_path).keys()]).toContain('all/other/a.txt');
      } finally {
        rmSync(dirname(data.zip_path), { recursive: true, force: true });
      }
    });
  });

  describe('refusals', () => {
    it.each([
      ['../' + 'escape', 'PATH_OUTSIDE_WORKSPACE'],
      ['app/../../etc', 'PATH_OUTSIDE_WORKSPACE'],
      ['/etc', 'PATH_OUTSIDE_WORKSPACE'],
      ['app/dir-out', 'PATH_OUTSIDE_WORKSPACE'],
      ['missing', 'NOT_FOUND'],
      ['app/notes.txt', 'NOT_A_FOLDER'],
      ['app/.git', 'SENSITIVE_PATH'],
    ])('refuses the folder %j with %s', async (folder, code) => {
      const result = await run({ folder, output_name: 'x' });
      expect(result.success).toBe(false);
      expect(result.meta['code']).toBe(code);
    });

    it.each(['../x', 'a/b', '..', '...zip', '-rf', 'with space', '', 'x'.repeat(101)])('refuses the output_name %j', async (name) => {
      const result = await run({ folder: 'app', output_name: name });
      expect(result.meta['code']).toBe('INVALID_OUTPUT_NAME');
    });

    it('refuses TOO_MANY_FILES and PACKAGE_TOO_LARGE before writing anything', async () => {
      const before = readdirSync(output).length;
      const few = await run({ folder: 'app', output_name: 'few' }, zipPackageTool({ workspace, outputDirectory: output, maxFiles: 2 }));
      expect(few.meta['code']).toBe('TOO_MANY_FILES');
      const small = await run(
        { folder: 'app', output_name: 'small' },
        zipPackageTool({ workspace, outputDirectory: output, maxBytes: 10 }),
      );
      expect(small.meta['code']).toBe('PACKAGE_TOO_LARGE');
      expect(small.error).toMatch(/more than 10 bytes/);
      expect(readdirSync(output)).toHaveLength(before);
    });
  });

  describe('checkOutputName', () => {
    it('strips a trailing .zip and keeps a plain name', () => {
      expect(checkOutputName('q1-reports.ZIP')).toBe('q1-reports');
      expect(checkOutputName('v1.2_final')).toBe('v1.2_final');
    });
  });

  describe('through a ToolRegistry', () => {
    it('zips for a cli caller, refuses a traversing output_name, and denies a caller without workspace:write', async () => {
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli() });
      registry.register(tool);
      const result = await registry.call('zip_package', { folder: 'other', output_name: 'other' }, ToolContext.cli());
      expect(result.success).toBe(true);
      expect([...readZip((result.data as ZipPackageData).zip_path).keys()]).toEqual(['other/a.txt']);
      const traversal = await registry.call('zip_package', { folder: 'other', output_name: '../x' }, ToolContext.cli());
      expect(traversal.success).toBe(false);
      const denied = await registry.call(
        'zip_package',
        { folder: 'other', output_name: 'other' },
        ToolContext.web('user:1', ['workspace:read']),
      );
      expect(denied.success).toBe(false);
    });
  });
});
