import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConformanceCheck } from './conformance-check.js';

/**
 * The checks of every scenario the CLI wrote under `outputDir` (one `server-<scenario>-<timestamp>`
 * directory each, holding `checks.json`). A directory is matched to the longest scenario name it
 * starts with, since scenario names share prefixes.
 */
export async function readScenarioResults(outputDir: string, scenarios: readonly string[]): Promise<Map<string, ConformanceCheck[]>> {
  const byLength = [...scenarios].sort((a, b) => b.length - a.length);
  const results = new Map<string, ConformanceCheck[]>();
  for (const entry of await readdir(outputDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const scenario = byLength.find((name) => entry.name.startsWith(`server-${name}-`));
    if (scenario === undefined) continue;
    const checks = JSON.parse(await readFile(join(outputDir, entry.name, 'checks.json'), 'utf8')) as ConformanceCheck[];
    results.set(scenario, checks);
  }
  return results;
}
