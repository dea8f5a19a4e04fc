import { describe, expect, it } from 'vitest';
import { checkRequestHeaders, REFUSED_REQUEST_HEADERS } from './check-request-headers.js';

describe('checkRequestHeaders', () => {
  it('returns the headers with lower-case names', () => {
    expect(checkRequestHeaders({ Accept: 'application/json', 'X-Api-Key': 'k' })).toEqual({ accept: 'application/json', 'x-api-key': 'k' });
  });

  it('returns no headers when none are given', () => {
    expect(checkRequestHeaders(undefined)).toEqual({});
  });

  it.each([...REFUSED_REQUEST_HEADERS, 'HOST', 'Proxy-Authorization', 'proxy-anything'])('throws HEADER_NOT_ALLOWED for %s', (name) => {
    expect(() => checkRequestHeaders({ [name]: 'x' })).toThrow(expect.objectContaining({ code: 'HEADER_NOT_ALLOWED' }));
  });

  it.each([
    [{ 'X-A': 'one\r\nHost: internal' }],
    [{ 'X-A': 'one\nX-B: two' }],
    [{ 'X-A': 'nul\u0000' }],
    [{ 'X-A': 'ünicode' }],
    [{ 'X-A': 5 }],
    [{ 'Bad Name': 'x' }],
    [{ 'Bad:Name': 'x' }],
    [{ '': 'x' }],
    [{ 'X-A': 'a', 'x-a': 'b' }],
    [{ 'X-A': 'v'.repeat(4097) }],
    [Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`x-h${index}`, 'v']))],
    [Object.fromEntries(Array.from({ length: 3 }, (_, index) => [`x-h${index}`, 'v'.repeat(4000)]))],
    ['a string'],
    [['x']],
  ])('throws INVALID_HEADER for %j', (headers) => {
    expect(() => checkRequestHeaders(headers)).toThrow(expect.objectContaining({ code: 'INVALID_HEADER' }));
  });

  it('keeps a header named __proto__ as a plain entry', () => {
    const headers = checkRequestHeaders(JSON.parse('{"__proto__":"x"}'));
    expect(Object.keys(headers)).toEqual(['__proto__']);
  });
});
