import { PROJECT_MARKERS, type ProjectMarker } from './project-markers.js';
import type { PackageManifest } from './read-package-manifest.js';

/** A framework or tool found in a project, with what gave it away. */
export interface DetectedStackItem {
  /** The framework or tool, e.g. `Next.js`, `pnpm`. */
  readonly name: string;
  /** What was found: file names (`next.config.mjs`), dependencies (`dependency next ^15.0.0`), `package.json` keys. */
  readonly evidence: readonly string[];
}

/** The frameworks, tools and package manager of one project folder. */
export interface ProjectStack {
  /** Frameworks, in the order of `PROJECT_MARKERS`. */
  readonly frameworks: readonly DetectedStackItem[];
  /** Tools, in the order of `PROJECT_MARKERS`. */
  readonly tools: readonly DetectedStackItem[];
  /** `pnpm`, `yarn`, `npm` or `bun`, from `packageManager` or else the lockfile; null when neither says. */
  readonly packageManager: string | null;
}

const CONFIG_EXTENSIONS: ReadonlySet<string> = new Set(['js', 'mjs', 'cjs', 'ts', 'mts', 'cts', 'json', 'json5', 'yaml', 'yml', 'toml']);
const PACKAGE_MANAGERS = ['pnpm', 'yarn', 'npm', 'bun'] as const;
const LOCKFILE_MANAGERS: ReadonlyArray<readonly [file: string, manager: (typeof PACKAGE_MANAGERS)[number]]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lockb', 'bun'],
  ['bun.lock', 'bun'],
  ['package-lock.json', 'npm'],
];

function matchesStem(fileName: string, stem: string): boolean {
  if (fileName === stem) return true;
  return fileName.startsWith(`${stem}.`) && CONFIG_EXTENSIONS.has(fileName.slice(stem.length + 1));
}

function dependencyEvidence(marker: ProjectMarker, manifest: PackageManifest | null): string[] {
  if (manifest === null) return [];
  const evidence: string[] = [];
  for (const [field, label] of [
    ['dependencies', 'dependency'],
    ['devDependencies', 'devDependency'],
  ] as const) {
    for (const [name, range] of Object.entries(manifest[field])) {
      const named =
        marker.dependencies?.includes(name) === true || marker.dependencyPrefixes?.some((prefix) => name.startsWith(prefix)) === true;
      if (named) evidence.push(`${label} ${name} ${range}`.trim());
    }
  }
  return evidence;
}

/**
 * Detects frameworks and tools from the file names at a project's root and its `package.json`,
 * following `PROJECT_MARKERS`. Only names are looked at here; no file is read.
 *
 * @example
 * detectProjectStack(['next.config.mjs', 'pnpm-lock.yaml'], manifest).frameworks;
 * // [{ name: 'Next.js', evidence: ['next.config.mjs', 'dependency next ^15.0.0'] }]
 */
export function detectProjectStack(fileNames: readonly string[], manifest: PackageManifest | null): ProjectStack {
  const names = [...fileNames].sort();
  const frameworks: DetectedStackItem[] = [];
  const tools: DetectedStackItem[] = [];
  for (const marker of PROJECT_MARKERS) {
    const files = names.filter(
      (name) => marker.files?.includes(name) === true || marker.configStems?.some((stem) => matchesStem(name, stem)) === true,
    );
    const dependencies = dependencyEvidence(marker, manifest);
    const keys = (marker.manifestKeys ?? []).filter((key) => manifest?.keys.has(key) === true).map((key) => `package.json "${key}"`);
    const found = dependencies.length > 0 || (marker.requiresDependency !== true && (files.length > 0 || keys.length > 0));
    if (!found) continue;
    (marker.kind === 'framework' ? frameworks : tools).push({ name: marker.name, evidence: [...files, ...dependencies, ...keys] });
  }
  return { frameworks, tools, packageManager: packageManagerOf(names, manifest) };
}

function packageManagerOf(names: readonly string[], manifest: PackageManifest | null): string | null {
  const declared = manifest?.packageManager?.split('@')[0];
  if (declared !== undefined && (PACKAGE_MANAGERS as readonly string[]).includes(declared)) return declared;
  return LOCKFILE_MANAGERS.find(([file]) => names.includes(file))?.[1] ?? null;
}
