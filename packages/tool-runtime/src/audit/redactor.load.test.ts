import { describe, expect, it } from 'vitest';

// The redactor's module-level setup (its default names, the parameter names, the shape expressions)
// runs when the module loads. Loading it inside a test turns a failure there into a failing test,
// where a failing import would only fail the test file.

describe('Redactor module', () => {
  it('loads, and its default names and shapes work', async () => {
    const { DEFAULT_SENSITIVE_FIELDS, REDACTED, Redactor } = await import('./redactor.js');
    const redactor = new Redactor();
    expect(DEFAULT_SENSITIVE_FIELDS).toHaveLength(13);
    for (const name of [
      'db_password',
      'PASSWD',
      'db_pwd',
      'passphrase',
      'client_secret',
      'github_token',
      'X-Api-Key',
      'aws_access_key_id',
    ]) {
      expect(redactor.isSensitiveKey(name)).toBe(true);
    }
    for (const name of ['private_key', 'credentials', 'sessionId', 'Set-Cookie', 'Proxy-Authorization']) {
      expect(redactor.isSensitiveKey(name)).toBe(true);
    }
    expect(redactor.isSensitiveKey('username')).toBe(false);
    expect(redactor.scrub('https://a:b@h/?key=k&sig=s Bearer abcd1234 {"token":"t"} token: u', [])).toBe(
      `https://${REDACTED}@h/?key=${REDACTED}&sig=${REDACTED} Bearer ${REDACTED} {"token":"${REDACTED}"} token: ${REDACTED}`,
    );
    expect(redactor.scrub('ghp_abcdefghijklmnopqrstuvwxyz AKIAABCDEFGH23456789 xoxb-1234567890', [])).toBe(
      `${REDACTED} ${REDACTED} ${REDACTED}`,
    );
  });
});
