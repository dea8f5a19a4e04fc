import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_JSON_DEPTH, exceedsJsonDepth, invalidJsonRpcReason } from './json-depth.js';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');

describe('exceedsJsonDepth', () => {
  it('counts arrays and objects, and stops at the first level too deep', () => {
    expect(exceedsJsonDepth(bytes('[[1]]'), 2)).toBe(false);
    expect(exceedsJsonDepth(bytes('[[[1]]]'), 2)).toBe(true);
    expect(exceedsJsonDepth(bytes('{"a":{"b":[1]}}'), 3)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a":{"b":[{}]}}'), 3)).toBe(true);
    expect(exceedsJsonDepth(bytes('[1],[2],[3]'), 1)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(bytes('{"a":"[[[[[[{{{{"}'), 1)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a":"\\"[[[[[["}'), 1)).toBe(false);
    expect(exceedsJsonDepth(bytes('{"a":"\\\\","b":[[1]]}'), 2)).toBe(true);
    expect(exceedsJsonDepth(bytes('["é[[[[", "😀{{{{"]'), 1)).toBe(false);
  });

  it('finds two million levels under four MiB quickly, without parsing', () => {
    const deep = Buffer.from(`${'['.repeat(2_000_000)}${']'.repeat(2_000_000)}`);
    const started = performance.now();
    expect(exceedsJsonDepth(deep, DEFAULT_MAX_JSON_DEPTH)).toBe(true);
    const wide = Buffer.from(JSON.stringify({ items: Array.from({ length: 200_000 }, (_, i) => [i, { k: 'v' }]) }));
    expect(exceedsJsonDepth(wide, DEFAULT_MAX_JSON_DEPTH)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('invalidJsonRpcReason', () => {
  it.each([
    [[], 'empty batch'],
    [[1], 'must be an object'],
    ['text', 'must be an object'],
    [{ jsonrpc: '1.0', method: 'ping', id: 1 }, 'jsonrpc'],
    [{ jsonrpc: '2.0', method: 7, id: 1 }, 'method'],
    [{ jsonrpc: '2.0', method: 'ping', id: {} }, 'id must be'],
    [{ jsonrpc: '2.0', method: 'ping', id: true }, 'id must be'],
    [{ jsonrpc: '2.0', method: 'ping', id: [1] }, 'id must be'],
    [
      [
        { jsonrpc: '2.0', method: 'ping', id: 1 },
        { jsonrpc: '2.0', method: 'ping', id: { x: 1 } },
      ],
      'id must be',
    ],
  ])('refuses %j', (value, reason) => {
    expect(invalidJsonRpcReason(value)).toContain(reason);
  });

  it.each([
    [{ jsonrpc: '2.0', method: 'ping', id: 1 }],
    [{ jsonrpc: '2.0', method: 'ping', id: 'a' }],
    [{ jsonrpc: '2.0', method: 'ping', id: null }],
    [{ jsonrpc: '2.0', method: 'notifications/initialized' }],
    [{ jsonrpc: '2.0', result: {}, id: 3 }],
    [[{ jsonrpc: '2.0', method: 'ping', id: 1 }]],
  ])('accepts %j', (value) => {
    expect(invalidJsonRpcReason(value)).toBeNull();
  });
});
