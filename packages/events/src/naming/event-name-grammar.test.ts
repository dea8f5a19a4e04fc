import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertEventName, assertSubscriptionPattern, isWildcardPattern, matchesWildcardPattern } from './event-name-grammar.js';

const invalidName = expect.objectContaining({ name: 'EventDispatcherError', code: 'INVALID_EVENT_NAME' });

describe('event-name-grammar', () => {
  describe('assertEventName', () => {
    it.each(['boot', 'user.created', 'tool.executing', 'a.b.c.d', 'User.Created', 'with space.ok'])('accepts %j', (name) => {
      expect(() => assertEventName(name)).not.toThrow();
    });

    it.each(['', '.', 'user.', '.user', 'user..created', 'user.*', '*', 'user*'])(
      'throws INVALID_EVENT_NAME when the name is %j',
      (name) => {
        expect(() => assertEventName(name)).toThrow(invalidName);
      },
    );

    it('throws INVALID_EVENT_NAME naming the type when the name is not a string', () => {
      expect(() => assertEventName(42)).toThrow('Invalid event name: expected a string, got number');
      expect(() => assertEventName(null)).toThrow('expected a string, got null');
    });

    it('names the offending value and the fault when the name is malformed', () => {
      expect(() => assertEventName('user..created')).toThrow("Invalid event name 'user..created': it has an empty segment");
      expect(() => assertEventName('user.*')).toThrow("'*' is only allowed in subscription patterns");
    });
  });

  describe('assertSubscriptionPattern', () => {
    it.each(['boot', 'user.created', 'user.*', '*.created', '*', '*.*', 'a.*.c'])('accepts %j', (pattern) => {
      expect(() => assertSubscriptionPattern(pattern)).not.toThrow();
    });

    it.each(['', 'user.**', 'user*', '*user', 'user.*x', 'user.x*', '**', 'user..*', '*.', '.*'])(
      'throws INVALID_EVENT_NAME when the pattern is %j',
      (pattern) => {
        expect(() => assertSubscriptionPattern(pattern)).toThrow(invalidName);
      },
    );

    it('says a wildcard must be a whole segment when it is not', () => {
      expect(() => assertSubscriptionPattern('user.**')).toThrow(
        "Invalid event name or pattern 'user.**': '*' must stand alone as a whole segment",
      );
    });
  });

  describe('isWildcardPattern', () => {
    it('tells wildcard patterns from exact names', () => {
      expect(isWildcardPattern('user.*')).toBe(true);
      expect(isWildcardPattern('*')).toBe(true);
      expect(isWildcardPattern('user.created')).toBe(false);
    });
  });

  describe('matchesWildcardPattern', () => {
    it('matches one segment after a prefix when the pattern is user.*', () => {
      expect(matchesWildcardPattern('user.*', 'user.created')).toBe(true);
      expect(matchesWildcardPattern('user.*', 'user.updated')).toBe(true);
      expect(matchesWildcardPattern('user.*', 'order.created')).toBe(false);
      expect(matchesWildcardPattern('user.*', 'app.user.created')).toBe(false);
      expect(matchesWildcardPattern('user.*', 'user.a.b')).toBe(false);
      expect(matchesWildcardPattern('user.*', 'user')).toBe(false);
    });

    it('matches one leading segment when the pattern is *.created', () => {
      expect(matchesWildcardPattern('*.created', 'user.created')).toBe(true);
      expect(matchesWildcardPattern('*.created', 'order.created')).toBe(true);
      expect(matchesWildcardPattern('*.created', 'user.createdX')).toBe(false);
      expect(matchesWildcardPattern('*.created', 'a.user.created')).toBe(false);
    });

    it('matches only single-segment names when the pattern is a bare *', () => {
      expect(matchesWildcardPattern('*', 'boot')).toBe(true);
      expect(matchesWildcardPattern('*', 'user.created')).toBe(false);
    });

    it('compares case-sensitively', () => {
      expect(matchesWildcardPattern('User.*', 'user.created')).toBe(false);
      expect(matchesWildcardPattern('*.Created', 'user.created')).toBe(false);
    });

    it('agrees with segment-by-segment matching for any valid pattern and name', () => {
      const segment = fc.constantFrom('a', 'b', 'ab', 'user', 'created', 'x1');
      const name = fc.array(segment, { minLength: 1, maxLength: 4 });
      const pattern = fc.array(fc.oneof(segment, fc.constant('*')), { minLength: 1, maxLength: 4 });
      fc.assert(
        fc.property(pattern, name, (patternSegments, nameSegments) => {
          const expected =
            patternSegments.length === nameSegments.length &&
            patternSegments.every((part, index) => part === '*' || part === nameSegments[index]);
          expect(matchesWildcardPattern(patternSegments.join('.'), nameSegments.join('.'))).toBe(expected);
        }),
      );
    });
  });
});
