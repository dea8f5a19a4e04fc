import { MilpaError } from '@milpa/core';

/** One deny-list entry that matches no registered tool. */
export interface UnmatchedDenyEntry {
  /** The tool name that matched nothing. */
  readonly name: string;
  /** Where it came from: the deny list itself (`deny`), or the group that named it (`group:writes`). */
  readonly via: string;
}

/** What `registry.denyReport()` answers. */
export interface DenyReport {
  /** Every tool name the deny list covers, groups expanded, sorted. */
  readonly denied: readonly string[];
  /** The denied names a tool tried to register under: those tools are neither listed nor callable. */
  readonly matched: readonly string[];
  /** Names (direct or through a group) that match no tool registered so far: likely typos. */
  readonly unmatched: readonly UnmatchedDenyEntry[];
}

const GROUP_PREFIX = 'group:';

function invalid(message: string): MilpaError {
  return new MilpaError(`ToolRegistry option deny: ${message}`, { code: 'INVALID_ARGUMENT' });
}

/**
 * The registry's deny list: tool names and `group:` references expanded through `groups`. A
 * malformed entry or a group with no definition throws at construction; a name that matches no
 * tool is reported, never silently ignored.
 * @internal
 */
export class DenyList {
  /** Denied name → where it came from (the first source that named it). */
  readonly #sources = new Map<string, string>();
  readonly #matched = new Set<string>();

  /** @throws MilpaError `INVALID_ARGUMENT` for a malformed entry or group, or a reference to an undefined group. */
  constructor(deny: readonly string[] | undefined, groups: Readonly<Record<string, readonly string[]>> | undefined) {
    if (deny === undefined) return;
    if (!Array.isArray(deny)) throw invalid('must be an array of tool names and group: references.');
    if (groups !== undefined && (typeof groups !== 'object' || groups === null || Array.isArray(groups))) {
      throw invalid("groups must be an object such as { 'group:writes': ['file_write'] }.");
    }
    for (const entry of deny) {
      if (typeof entry !== 'string' || entry.trim() === '') throw invalid('every entry must be a non-empty string.');
      if (!entry.startsWith(GROUP_PREFIX)) {
        if (!this.#sources.has(entry)) this.#sources.set(entry, 'deny');
        continue;
      }
      const members = groups === undefined || !Object.hasOwn(groups, entry) ? undefined : groups[entry];
      if (members === undefined) throw invalid(`'${entry}' names a group that is not defined in groups.`);
      if (!Array.isArray(members) || members.some((member) => typeof member !== 'string' || member === '')) {
        throw invalid(`group '${entry}' must be an array of tool names.`);
      }
      for (const member of members) if (!this.#sources.has(member)) this.#sources.set(member, entry);
    }
  }

  /** The number of denied names. */
  get size(): number {
    return this.#sources.size;
  }

  /** True when `name` is denied; a denied name that tried to register counts as matched. */
  denies(name: string): boolean {
    if (!this.#sources.has(name)) return false;
    this.#matched.add(name);
    return true;
  }

  /** The report, given which tools are registered now. */
  report(isRegistered: (name: string) => boolean): DenyReport {
    const denied = [...this.#sources.keys()].sort();
    const unmatched = denied
      .filter((name) => !this.#matched.has(name) && !isRegistered(name))
      .map((name) => Object.freeze({ name, via: this.#sources.get(name) as string }));
    return Object.freeze({
      denied: Object.freeze(denied),
      matched: Object.freeze(denied.filter((name) => this.#matched.has(name))),
      unmatched: Object.freeze(unmatched),
    });
  }
}
