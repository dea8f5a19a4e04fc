import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from './redactor.js';
import { redactForSink } from './redact-for-sink.js';

const SECRET = 'hunter2-Zq7';

describe('redactForSink', () => {
  it('scrubs a secret repeated under an ordinary name, in a nested array and as a key', () => {
    const args = {
      password: SECRET,
      note: `my password is ${SECRET}`,
      accounts: [{ name: 'ops', password: 'other-pw-1' }, { name: `copy of other-pw-1` }],
      lookup: { [SECRET]: true },
    };
    const view = redactForSink(new Redactor(), args);
    expect(view).toEqual({
      password: REDACTED,
      note: `my password is ${REDACTED}`,
      accounts: [{ name: 'ops', password: REDACTED }, { name: `copy of ${REDACTED}` }],
      lookup: { [REDACTED]: true },
    });
    expect(JSON.stringify(view)).not.toMatch(/hunter2|other-pw-1/);
  });

  it('scrubs the value of a writeOnly schema field wherever else it is quoted', () => {
    const schema = { type: 'object', properties: { recovery: { type: 'string', writeOnly: true }, note: { type: 'string' } } };
    expect(redactForSink(new Redactor(), { recovery: 'wo-4455', note: 'code wo-4455' }, schema)).toEqual({
      recovery: REDACTED,
      note: `code ${REDACTED}`,
    });
  });

  it('keeps a scrubbed `__proto__` key an ordinary field, never the prototype', () => {
    const args = JSON.parse(`{"password":"${SECRET}","__proto__":{"note":"${SECRET}"}}`) as Record<string, unknown>;
    const view = redactForSink(new Redactor(), args) as Record<string, unknown>;
    expect(Object.getPrototypeOf(view)).toBe(Object.prototype);
    expect(Object.hasOwn(view, '__proto__')).toBe(true);
    expect(JSON.stringify(view)).not.toContain(SECRET);
  });

  it('leaves arguments without secrets as they were, in a copy', () => {
    const args = { id: 7, tags: ['a', 'b'], nested: { ok: true } };
    const view = redactForSink(new Redactor(), args);
    expect(view).toEqual(args);
    expect(view).not.toBe(args);
  });

  it('scrubs a secret quoted in its JSON-escaped form, and the longer of two overlapping secrets whole', () => {
    const args = { password: 'a"b\\c', token: 'a"b\\c-long', note: `json {"p":${JSON.stringify('a"b\\c')}} and a"b\\c-long` };
    const view = redactForSink(new Redactor(), args) as Record<string, unknown>;
    expect(view['note']).toBe(`json {"p":"${REDACTED}"} and ${REDACTED}`);
  });

  it('uses the secrets it is given instead of collecting them again', () => {
    expect(redactForSink(new Redactor(), { note: 'token abc-123' }, null, ['abc-123'])).toEqual({ note: `token ${REDACTED}` });
  });

  it('redacts the whole view when the redactor throws', () => {
    const redactor = new Redactor();
    redactor.scrub = () => {
      throw new Error('broken');
    };
    expect(redactForSink(redactor, { note: 'x' })).toBe(REDACTED);
  });
});
