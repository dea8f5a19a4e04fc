import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStringByteLength, utf8ByteLength } from './json-byte-length.js';

const anyUtf16 = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 64 }).map((codes) => String.fromCharCode(...codes));

describe('utf8ByteLength', () => {
  it('agrees with Buffer.byteLength for any UTF-16 string, lone surrogates included', () => {
    fc.assert(fc.property(anyUtf16, (text) => utf8ByteLength(text) === Buffer.byteLength(text, 'utf8')));
  });
});

describe('jsonStringByteLength', () => {
  it.each([
    ['', 2],
    ['abc', 5],
    ['say "hi"\\', 14],
    ['\n\t\b\f\r', 12],
    ['\u0000\u001f', 14],
    ['ñ€😀', 11],
    ['\ud800', 8],
    ['\udc00x', 9],
  ])('counts the bytes of JSON.stringify(%j)', (text, bytes) => {
    expect(jsonStringByteLength(text)).toBe(bytes);
    expect(jsonStringByteLength(text)).toBe(Buffer.byteLength(JSON.stringify(text), 'utf8'));
  });

  it('agrees with the UTF-8 length of JSON.stringify for any UTF-16 string', () => {
    fc.assert(fc.property(anyUtf16, (text) => jsonStringByteLength(text) === Buffer.byteLength(JSON.stringify(text), 'utf8')));
  });
});
