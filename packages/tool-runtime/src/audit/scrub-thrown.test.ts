import { describe, expect, it } from 'vitest';
import { redactForSink } from './redact-for-sink.js';
import { REDACTED, Redactor } from './redactor.js';
import { scrubThrown, type ThrownScrubbers } from './scrub-thrown.js';

const SECRET = 'pw-nested-81x';
const args = { accounts: [{ name: 'ops', password: SECRET }] };
const redactor = new Redactor();
const secrets = redactor.collectSecrets(args);
const scrubbers: ThrownScrubbers = {
  text: (text) => redactor.scrub(text, secrets),
  value: (value) => redactForSink(redactor, value, null, secrets),
};

class LoginError extends Error {
  override name = 'LoginError';
}

describe('scrubThrown', () => {
  it('passes an error whose text holds no secret on as the very instance', () => {
    const error = new Error('disk full');
    expect(scrubThrown(error, scrubbers)).toBe(error);
  });

  it('copies an error that quotes a secret from a nested array: same name, scrubbed message and stack, no cause', () => {
    const error = new LoginError(`login failed for ${SECRET}`, { cause: args });
    const safe = scrubThrown(error, scrubbers) as Error;
    expect(safe).not.toBe(error);
    expect(safe).toBeInstanceOf(Error);
    expect(safe.name).toBe('LoginError');
    expect(safe.message).toBe(`login failed for ${REDACTED}`);
    expect(safe.stack).toContain(REDACTED);
    expect(safe.stack).not.toContain(SECRET);
    expect('cause' in safe).toBe(false);
  });

  it('never passes on an error with a cause, even one whose text is clean', () => {
    const error = new Error('failed', { cause: args });
    const safe = scrubThrown(error, scrubbers) as Error;
    expect(safe).not.toBe(error);
    expect(safe.message).toBe('failed');
    expect('cause' in safe).toBe(false);
  });

  it("keeps an error's own fields, redacted and scrubbed", () => {
    const error = Object.assign(new Error('denied'), { code: 'E_AUTH', request: { password: 'x1', echo: `got ${SECRET}` } });
    const safe = scrubThrown(error, scrubbers) as Error & Record<string, unknown>;
    expect(safe['code']).toBe('E_AUTH');
    expect(safe['request']).toEqual({ password: REDACTED, echo: `got ${REDACTED}` });
  });

  it('scrubs a thrown string, and redacts a thrown number that is a secret', () => {
    expect(scrubThrown(`bad ${SECRET}`, scrubbers)).toBe(`bad ${REDACTED}`);
    const pinScrubbers: ThrownScrubbers = { text: (text) => redactor.scrub(text, ['4455']), value: (value) => value };
    expect(scrubThrown(4455, pinScrubbers)).toBe(REDACTED);
    expect(scrubThrown(12, pinScrubbers)).toBe(12);
  });

  it('hands on a redacted copy of any other thrown value', () => {
    expect(scrubThrown({ password: 'x', detail: [`saw ${SECRET}`] }, scrubbers)).toEqual({
      password: REDACTED,
      detail: [`saw ${REDACTED}`],
    });
  });

  it('answers a redacted error when the thrown value cannot be read', () => {
    const hostile = new Error('x');
    Object.defineProperty(hostile, 'message', {
      get() {
        throw new Error('no');
      },
    });
    const safe = scrubThrown(hostile, scrubbers) as Error;
    expect(safe.message).toBe(REDACTED);
  });
});
