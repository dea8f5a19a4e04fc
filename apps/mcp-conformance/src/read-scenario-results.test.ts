import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readScenarioResults } from './read-scenario-results.js';

const directories: string[] = [];
afterEach(async () => {
  await Promise.all(directories.splice(0).map((directory) => rm(directory, { recursive: true, force: true })));
});

async function writeResult(root: string, directory: string, checks: unknown): Promise<void> {
  await mkdir(join(root, directory));
  await writeFile(join(root, directory, 'checks.json'), JSON.stringify(checks));
}

describe('readScenarioResults', () => {
  it('matches each result directory to the longest scenario name it starts with', async () => {
    const root = await mkdtemp(join(tmpdir(), 'milpa-results-'));
    directories.push(root);
    await writeResult(root, 'server-tools-call-2026-01-01T00-00-00-000Z', [{ id: 'a', status: 'SUCCESS' }]);
    await writeResult(root, 'server-tools-call-image-2026-01-01T00-00-00-000Z', [{ id: 'b', status: 'FAILURE' }]);
    await writeResult(root, 'server-unknown-2026-01-01T00-00-00-000Z', []);
    await writeFile(join(root, 'notes.txt'), 'ignored');
    const results = await readScenarioResults(root, ['tools-call', 'tools-call-image']);
    expect([...results.keys()].sort()).toEqual(['tools-call', 'tools-call-image']);
    expect(results.get('tools-call-image')).toEqual([{ id: 'b', status: 'FAILURE' }]);
  });
});
