// The grammar of event names and subscription patterns, shared by every EventDispatcher method.
//
// An event name is one or more non-empty segments joined by `.` and never contains `*`
// (`boot`, `user.created`, `tool.executing`). A subscription pattern is the same, except that a
// segment may be exactly `*`, which matches exactly one whole segment: `user.*`,
// `*.created`, `*`. Partial-segment wildcards (`user*`, `user.**`) are refused rather than guessed
// at, so a typo never turns into a listener that silently never (or always) runs.

import { EventDispatcherError } from '../errors/event-dispatcher-error.js';

const DOT = 46; // '.'
const STAR = 42; // '*'

/** Why `value` is not a valid name or pattern, or null when it is. */
function findGrammarFault(value: unknown, allowWildcards: boolean): string | null {
  if (typeof value !== 'string') return `expected a string, got ${value === null ? 'null' : typeof value}`;
  if (value.length === 0) return 'it is empty';
  let segmentStart = 0;
  for (let index = 0; index <= value.length; index++) {
    const code = index < value.length ? value.charCodeAt(index) : DOT;
    if (code === DOT) {
      if (index === segmentStart) return 'it has an empty segment';
      segmentStart = index + 1;
    } else if (code === STAR) {
      if (!allowWildcards) return "'*' is only allowed in subscription patterns";
      const wholeSegment = index === segmentStart && (index + 1 === value.length || value.charCodeAt(index + 1) === DOT);
      if (!wholeSegment) return "'*' must stand alone as a whole segment";
    }
  }
  return null;
}

/**
 * Checks a name passed to `dispatch`, `notify`, `hasSubscribers` or `getSubscribers`.
 *
 * @throws EventDispatcherError `INVALID_EVENT_NAME` when the name breaks the grammar.
 */
export function assertEventName(value: unknown): asserts value is string {
  const fault = findGrammarFault(value, false);
  if (fault !== null) {
    throw new EventDispatcherError(`Invalid event name${quote(value)}: ${fault}`, 'INVALID_EVENT_NAME');
  }
}

/**
 * Checks a name or pattern passed to `subscribe`.
 *
 * @throws EventDispatcherError `INVALID_EVENT_NAME` when the pattern breaks the grammar.
 */
export function assertSubscriptionPattern(value: unknown): asserts value is string {
  const fault = findGrammarFault(value, true);
  if (fault !== null) {
    throw new EventDispatcherError(`Invalid event name or pattern${quote(value)}: ${fault}`, 'INVALID_EVENT_NAME');
  }
}

/** True when a valid subscription pattern contains a `*` segment. */
export function isWildcardPattern(pattern: string): boolean {
  return pattern.includes('*');
}

/**
 * True when the valid wildcard `pattern` matches the valid event `name`: literal characters match
 * themselves (case-sensitively) and each `*` consumes exactly one non-empty segment, anchored at
 * both ends. It walks both strings in place, without splitting or building a regular expression.
 */
export function matchesWildcardPattern(pattern: string, name: string): boolean {
  let patternIndex = 0;
  let nameIndex = 0;
  while (patternIndex < pattern.length) {
    if (pattern.charCodeAt(patternIndex) === STAR) {
      let segmentEnd = name.indexOf('.', nameIndex);
      if (segmentEnd === -1) segmentEnd = name.length;
      if (segmentEnd === nameIndex) return false;
      nameIndex = segmentEnd;
    } else if (nameIndex >= name.length || pattern.charCodeAt(patternIndex) !== name.charCodeAt(nameIndex)) {
      return false;
    } else {
      nameIndex++;
    }
    patternIndex++;
  }
  return nameIndex === name.length;
}

function quote(value: unknown): string {
  return typeof value === 'string' ? ` '${value}'` : '';
}
