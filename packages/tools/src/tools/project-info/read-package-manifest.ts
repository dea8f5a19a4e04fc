import { join } from 'node:path';
import { ToolError } from '../../lifecycle/tool-error.js';
import type { Workspace, WorkspacePath } from '../../sandbox/workspace.js';

/** The parts of a `package.json` that `project_info` reports, with every value checked to be a string. */
export interface PackageManifest {
  /** `name`, or null. */
  readonly name: string | null;
  /** `version`, or null. */
  readonly version: string | null;
  /** `packageManager` (e.g. `pnpm@10.0.0`), or null. */
  readonly packageManager: string | null;
  /** `scripts`: name → command. */
  readonly scripts: Readonly<Record<string, string>>;
  /** `dependencies`: name → version range. */
  readonly dependencies: Readonly<Record<string, string>>;
  /** `devDependencies`: name → version range. */
  readonly devDependencies: Readonly<Record<string, string>>;
  /** Every top-level key, for tools configured inside `package.json` (`jest`, `prettier`, …). */
  readonly keys: ReadonlySet<string>;
}

/** What {@link readPackageManifest} found: a manifest, or null with the reason when there is none usable. */
export interface ManifestReading {
  /** The parsed manifest, or null. */
  readonly manifest: PackageManifest | null;
  /** Why `manifest` is null although a `package.json` may be there, or null when it simply is absent or was read. */
  readonly problem: string | null;
}

const MAX_MANIFEST_BYTES = 512 * 1024;

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function stringRecord(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const record: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry === 'string') record[key] = entry;
  }
  return record;
}

/**
 * Reads `package.json` in `folder` through the workspace (no symlink followed, at most 512 KiB)
 * and keeps its string fields. A missing file is no problem; an unreadable, oversized or invalid
 * one is reported in `problem`, never thrown.
 *
 * @example
 * const { manifest } = await readPackageManifest(workspace, projectFolder);
 * manifest?.dependencies['next']; // '^15.0.0'
 */
export async function readPackageManifest(workspace: Workspace, folder: WorkspacePath): Promise<ManifestReading> {
  const absolute = join(folder.absolute, 'package.json');
  let file;
  try {
    file = await workspace.openForRead({ absolute, relative: workspace.relativeOf(absolute), exists: true });
  } catch (error) {
    if (error instanceof ToolError && error.code === 'NOT_FOUND') return { manifest: null, problem: null };
    const reason = error instanceof ToolError ? error.message : 'it could not be read';
    return { manifest: null, problem: `package.json was not read: ${reason}` };
  }
  let text: string;
  try {
    if (file.stats.size > MAX_MANIFEST_BYTES)
      return { manifest: null, problem: `package.json is larger than ${MAX_MANIFEST_BYTES} bytes and was not read.` };
    text = (await file.handle.readFile()).toString('utf8');
  } catch {
    return { manifest: null, problem: 'package.json could not be read.' };
  } finally {
    await file.handle.close();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    return { manifest: null, problem: `package.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { manifest: null, problem: 'package.json does not hold a JSON object.' };
  const record = parsed as Record<string, unknown>;
  return {
    manifest: {
      name: stringOrNull(record['name']),
      version: stringOrNull(record['version']),
      packageManager: stringOrNull(record['packageManager']),
      scripts: stringRecord(record['scripts']),
      dependencies: stringRecord(record['dependencies']),
      devDependencies: stringRecord(record['devDependencies']),
      keys: new Set(Object.keys(record)),
    },
    problem: null,
  };
}
