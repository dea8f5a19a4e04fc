import { describe, expect, it } from 'vitest';
import { unreadableBodyReason } from './unreadable-body-reason.js';

describe('unreadableBodyReason', () => {
  it.each([
    {},
    { 'content-type': 'text/html; charset=utf-8' },
    { 'content-type': 'application/json' },
    { 'content-type': 'application/problem+json' },
    { 'content-type': 'application/atom+xml' },
    { 'content-type': 'text/plain', 'content-encoding': 'identity' },
  ])('returns null for readable text with %j', (headers) => {
    expect(unreadableBodyReason(headers)).toBeNull();
  });

  it.each([
    [{ 'content-type': 'image/png' }, 'binary content (image/png)'],
    [{ 'content-type': 'application/octet-stream' }, 'binary content (application/octet-stream)'],
    [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, 'encoded (gzip)'],
    [{ 'content-encoding': 'br' }, 'encoded (br)'],
  ])('explains why %j is not returned', (headers, reason) => {
    expect(unreadableBodyReason(headers)).toContain(reason);
  });
});
