/**
 * The small pattern language of the path lists (written here rather than pulled from a glob
 * library: the lists need only these three rules, and a library's options would widen what matches).
 *
 * - A pattern is `/`-separated segments, matched without regard to case.
 * - `*` in a segment stands for any run of characters inside that one segment (never a `/`).
 * - A pattern matches the last segments of a path, at any depth: `.vscode/tasks.json` matches
 *   `.vscode/tasks.json` and `web/.vscode/tasks.json`. A pattern starting with `/` matches from the
 *   workspace root only: `/package.json` matches `package.json` but not `web/package.json`.
 */

const compiled = new Map<string, { readonly anchored: boolean; readonly segments: readonly RegExp[] }>();

function compile(pattern: string): { readonly anchored: boolean; readonly segments: readonly RegExp[] } {
  let known = compiled.get(pattern);
  if (known === undefined) {
    const anchored = pattern.startsWith('/');
    const segments = pattern
      .split('/')
      .filter((segment) => segment !== '')
      .map((segment) => new RegExp(`^${segment.split('*').map(escapeRegExp).join('[^/]*')}$`, 'i'));
    known = { anchored, segments };
    compiled.set(pattern, known);
  }
  return known;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The segments of a workspace-relative path, without empty and `.` segments. */
export function pathSegments(relativePath: string): string[] {
  return relativePath.split('/').filter((segment) => segment !== '' && segment !== '.');
}

/**
 * True when the path relative to the workspace root matches `pattern` (see the rules above).
 *
 * @example
 * matchesPathPattern('config/prod.env', '*.env'); // true
 * matchesPathPattern('web/.vscode/tasks.json', '.vscode/tasks.json'); // true
 */
export function matchesPathPattern(relativePath: string, pattern: string): boolean {
  const { anchored, segments: wanted } = compile(pattern);
  const segments = pathSegments(relativePath);
  if (wanted.length === 0 || wanted.length > segments.length) return false;
  const start = segments.length - wanted.length;
  if (anchored && start !== 0) return false;
  return wanted.every((test, index) => test.test(segments[start + index] as string));
}

/** The first pattern of `patterns` the path matches, or undefined. */
export function findPathPattern(relativePath: string, patterns: readonly string[]): string | undefined {
  return patterns.find((pattern) => matchesPathPattern(relativePath, pattern));
}
