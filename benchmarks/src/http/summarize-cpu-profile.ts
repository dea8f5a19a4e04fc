/** A V8 CPU profile, as `Profiler.stop` (or `node --cpu-prof`) writes it. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
    readonly children?: readonly number[];
  }[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Time attributed to one function or one category. */
export interface ProfileEntry {
  /** `functionName file:line`, or the category name. */
  readonly name: string;
  /** The category (package) the function belongs to. */
  readonly category: string;
  /** Milliseconds. */
  readonly ms: number;
}

/** Where a profiled window's CPU went. */
export interface ProfileSummary {
  /** Wall milliseconds the profile covers. */
  readonly totalMs: number;
  /** Milliseconds the thread was idle (waiting in the event loop). */
  readonly idleMs: number;
  /** Self time per category, largest first (idle excluded). */
  readonly categories: readonly ProfileEntry[];
  /** Self time per function, largest first (idle excluded). */
  readonly selfByFunction: readonly ProfileEntry[];
  /** Inclusive time (self and callees) per function, largest first (idle excluded; a recursive frame counts once per sample). */
  readonly totalByFunction: readonly ProfileEntry[];
}

const PINO_FAMILY = new Set([
  'pino',
  'sonic-boom',
  'pino-std-serializers',
  'quick-format-unescaped',
  'atomic-sleep',
  'on-exit-leak-free',
  'thread-stream',
  'fast-redact',
]);

/** The package (or runtime part) a frame belongs to, from its script URL. */
export function categoryOf(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(program)') return 'V8 (program)';
    return 'V8 builtins';
  }
  if (url.startsWith('node:')) return 'Node core';
  const milpa = /\/packages\/(core|events|tool-runtime|mcp)\/src\//.exec(url);
  if (milpa !== null) return `@milpa/${milpa[1] ?? '?'}`;
  const pkg = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(@[^/]+\/[^/]+|[^/]+)\//.exec(url);
  if (pkg !== null) {
    const name = pkg[1] ?? '?';
    return PINO_FAMILY.has(name) ? 'pino' : name;
  }
  if (url.includes('/benchmarks/src/')) return 'benchmark server code';
  return 'other';
}

function shortUrl(url: string): string {
  const inPackage = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?(.*)$/.exec(url);
  if (inPackage !== null) return inPackage[1] ?? url;
  const inRepo = /\/(packages\/.*|benchmarks\/.*)$/.exec(url);
  if (inRepo !== null) return inRepo[1] ?? url;
  return url.replace(/^file:\/\//, '');
}

function sorted(map: Map<string, { category: string; ms: number }>): ProfileEntry[] {
  return [...map.entries()].map(([name, { category, ms }]) => ({ name, category, ms })).sort((left, right) => right.ms - left.ms);
}

/**
 * Sums a CPU profile's samples by function (self and inclusive) and by category. Each sample is
 * weighted by the time until the next sample, as Chrome DevTools does.
 */
export function summarizeCpuProfile(profile: CpuProfile): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const keyOf = new Map<number, { key: string; category: string }>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber } = node.callFrame;
    const category = categoryOf(url, functionName);
    const name = functionName || '(anonymous)';
    // tsx compiles each TypeScript file to one line (with an inline source map the profiler does not apply): no line to show.
    const key =
      url === ''
        ? name
        : url.endsWith('.ts') && lineNumber === 0
          ? `${name} ${shortUrl(url)}`
          : `${name} ${shortUrl(url)}:${lineNumber + 1}`;
    keyOf.set(node.id, { key, category });
  }
  const deltas = profile.timeDeltas;
  const meanDelta = deltas.length === 0 ? 0 : deltas.reduce((sum, delta) => sum + delta, 0) / deltas.length;
  const self = new Map<string, { category: string; ms: number }>();
  const total = new Map<string, { category: string; ms: number }>();
  const categories = new Map<string, { category: string; ms: number }>();
  let totalMs = 0;
  let idleMs = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    const ms = (deltas[index + 1] ?? meanDelta) / 1000;
    totalMs += ms;
    const leaf = profile.samples[index]!;
    const leafKey = keyOf.get(leaf)!;
    if (leafKey.category === 'idle') {
      idleMs += ms;
      continue;
    }
    const add = (map: Map<string, { category: string; ms: number }>, key: string, category: string): void => {
      const entry = map.get(key);
      if (entry === undefined) map.set(key, { category, ms });
      else entry.ms += ms;
    };
    add(self, leafKey.key, leafKey.category);
    add(categories, leafKey.category, leafKey.category);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf; id !== undefined && byId.has(id); id = parentOf.get(id)) {
      const { key, category } = keyOf.get(id)!;
      if (seen.has(key)) continue;
      seen.add(key);
      add(total, key, category);
    }
  }
  return { totalMs, idleMs, categories: sorted(categories), selfByFunction: sorted(self), totalByFunction: sorted(total) };
}
