import { describe, expect, it } from 'vitest';
import { parseRequestUrl } from './parse-request-url.js';

describe('parseRequestUrl', () => {
  it.each([
    ['http://2130706433/', '127.0.0.1'],
    ['http://0177.0.0.1/', '127.0.0.1'],
    ['http://0x7f.0.0.1/', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://127.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://[::ffff:127.0.0.1]/', '[::ffff:7f00:1]'],
    ['http://[0:0:0:0:0:0:0:1]/', '[::1]'],
    ['HTTP://Example.COM/', 'example.com'],
  ])('normalizes the host of %s to %s before any check', (raw, hostname) => {
    expect(parseRequestUrl(raw).hostname).toBe(hostname);
  });

  it('drops the fragment and resolves a relative URL against a base', () => {
    expect(parseRequestUrl('/b?c=1#d', new URL('https://example.com/a')).href).toBe('https://example.com/b?c=1');
  });

  it.each([
    'ftp://example.com/',
    'file:///etc/passwd',
    'gopher://example.com/',
    'javascript:alert(1)',
    'data:text/plain,x',
    'not a url',
    '',
    `http://example.com/${'a'.repeat(2048)}`,
  ])('throws INVALID_URL for %j', (raw) => {
    expect(() => parseRequestUrl(raw)).toThrow(expect.objectContaining({ code: 'INVALID_URL' }));
  });

  it.each(['http://alice:hunter2@example.com/', 'http://alice@example.com/', 'https://:hunter2@example.com/'])(
    'throws URL_CREDENTIALS_REFUSED for %s without echoing it',
    (raw) => {
      expect(() => parseRequestUrl(raw)).toThrow(expect.objectContaining({ code: 'URL_CREDENTIALS_REFUSED' }));
      expect(() => parseRequestUrl(raw)).not.toThrow(/alice|hunter2/);
    },
  );
});
