import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../../sandbox/workspace.js';
import { ReadLedger } from '../read-ledger/read-ledger.js';
import { fileTools } from './file-tools.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'milpa-file-tools-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('fileTools', () => {
  it('builds file_read, file_write and file_edit with default scopes and a new ledger', () => {
    const files = fileTools({ workspace: Workspace.at(root) });

    expect(files.all.map((tool) => tool.name)).toEqual(['file_read', 'file_write', 'file_edit']);
    expect(files.all.map((tool) => tool.scopes)).toEqual([['workspace:read'], ['workspace:write'], ['workspace:write']]);
    expect(files.all.map((tool) => tool.mutating)).toEqual([false, true, true]);
    expect(files.ledger).toBeInstanceOf(ReadLedger);
  });

  it('uses the given ledger, ledger bounds and scopes', () => {
    const ledger = new ReadLedger();
    const files = fileTools({ workspace: Workspace.at(root), ledger, readScopes: ['r'], writeScopes: ['w'] });

    expect(files.ledger).toBe(ledger);
    expect(files.all.map((tool) => tool.scopes)).toEqual([['r'], ['w'], ['w']]);
    expect(fileTools({ workspace: Workspace.at(root), ledgerOptions: { maxRuns: 3 } }).ledger.maxRuns).toBe(3);
  });
});
