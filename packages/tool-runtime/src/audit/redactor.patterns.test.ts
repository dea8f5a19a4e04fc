import { MilpaError, ToolContext } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { REDACTED, Redactor } from './redactor.js';
import { ToolAuditLogger } from './tool-audit-logger.js';

const R = REDACTED;
const ACME = /ACME-[0-9A-F]{8}/;

describe('Redactor patterns', () => {
  it('redacts every match of an added pattern in string values at any depth and in scrubbed text', () => {
    const redactor = new Redactor();
    redactor.addSensitivePattern(ACME);
    expect(redactor.redact({ note: 'use ACME-0123ABCD or ACME-FFFFFFFF', list: [['ACME-00000000']], n: 1 })).toEqual({
      note: `use ${R} or ${R}`,
      list: [[R]],
      n: 1,
    });
    expect(redactor.scrub('failed: ACME-0123ABCD', [])).toBe(`failed: ${R}`);
    expect(redactor.scrub('acme-0123abcd', [])).toBe('acme-0123abcd');
  });

  it('takes patterns from the constructor options, beside the given names', () => {
    const redactor = new Redactor(['pin'], { patterns: [ACME, /\bcard \d{4}\b/i] });
    expect(redactor.redact({ pin: 1, password: 'shown', note: 'ACME-0123ABCD, CARD 4242' })).toEqual({
      pin: R,
      password: 'shown',
      note: `${R}, ${R}`,
    });
  });

  it("keeps the caller's expression untouched and drops its global and sticky state", () => {
    const sticky = /ACME-[0-9]+/y;
    const global = /ACME-[0-9]+/g;
    global.lastIndex = 3;
    const redactor = new Redactor(undefined, { patterns: [sticky, global] });
    expect(redactor.scrub('x ACME-1 y ACME-2', [])).toBe(`x ${R} y ${R}`);
    expect(redactor.scrub('x ACME-1 y ACME-2', [])).toBe(`x ${R} y ${R}`);
    expect(sticky.flags).toBe('y');
    expect(global.lastIndex).toBe(3);
    const keepsFlags = new Redactor([], { patterns: [/acme-\d/iu] });
    expect(keepsFlags.scrub('ACME-1 and acme-2', [])).toBe(`${R} and ${R}`);
  });

  it('inserts nothing where a pattern matches empty text', () => {
    const redactor = new Redactor([], { patterns: [/x*/, /\b/] });
    expect(redactor.scrub('abc xx d', [])).toBe(`abc ${R} d`);
  });

  it.each([
    ['a string', 'ACME'],
    ['null', null],
    ['an object', { source: 'x', flags: 'g' }],
  ])('refuses %s as a pattern with INVALID_ARGUMENT', (_kind, pattern) => {
    expect(() => new Redactor().addSensitivePattern(pattern as never)).toThrow(MilpaError);
    expect(() => new Redactor([], { patterns: [pattern as never] })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
  });

  it('redacts the whole text when a pattern cannot run, and the whole value when a copy cannot', () => {
    const redactor = new Redactor([], { patterns: [/x/] });
    const builtIn = Object.getOwnPropertyDescriptor(RegExp.prototype, Symbol.replace);
    Object.defineProperty(RegExp.prototype, Symbol.replace, {
      configurable: true,
      value() {
        throw new Error('boom');
      },
    });
    try {
      expect(redactor.scrub('plain', [])).toBe(R);
      expect(redactor.redact({ a: 'plain' })).toBe(R);
    } finally {
      Object.defineProperty(RegExp.prototype, Symbol.replace, builtIn as PropertyDescriptor);
    }
    expect(redactor.scrub('plain x', [])).toBe(`plain ${R}`);
  });

  it('is reached through ToolAuditLogger.addSensitivePattern', () => {
    const logger = new RecordingLogger();
    const audit = new ToolAuditLogger(logger);
    audit.addSensitivePattern(ACME);
    audit.log(ToolContext.cli(), 'tool', { note: 'ACME-0123ABCD' }, true, null, 1);
    expect(logger.dump()).not.toContain('ACME-0123ABCD');
    expect(() => audit.addSensitivePattern('ACME' as never)).toThrow(MilpaError);
  });
});
