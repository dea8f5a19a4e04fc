import { describe, expect, it } from 'vitest';
import { AddressAllowList } from './address-allow-list.js';

describe('AddressAllowList', () => {
  describe('allows', () => {
    const list = AddressAllowList.parse(['127.0.0.1:8080', '[::1]:9090']);

    it('returns true for a listed address on its listed port', () => {
      expect(list.allows('127.0.0.1', 8080)).toBe(true);
      expect(list.allows('::1', 9090)).toBe(true);
      expect(list.allows('0:0:0:0:0:0:0:1', 9090)).toBe(true);
    });

    it('returns false for the listed address on another port', () => {
      expect(list.allows('127.0.0.1', 8081)).toBe(false);
      expect(list.allows('::1', 8080)).toBe(false);
    });

    it('returns false for a neighbouring address or another spelling of the same host', () => {
      expect(list.allows('127.0.0.2', 8080)).toBe(false);
      expect(list.allows('::ffff:127.0.0.1', 8080)).toBe(false);
      expect(list.allows('localhost', 8080)).toBe(false);
    });

    it('allows nothing when empty', () => {
      expect(AddressAllowList.parse().allows('127.0.0.1', 80)).toBe(false);
    });
  });

  describe('parse', () => {
    it.each([
      '127.0.0.1',
      '127.0.0.0/8:80',
      '*:80',
      'localhost:80',
      '127.0.0.1:0',
      '127.0.0.1:65536',
      '::1:80',
      '[127.0.0.1]:80',
      ' 127.0.0.1:80',
      42,
    ])('throws INVALID_ARGUMENT for %j', (entry) => {
      expect(() => AddressAllowList.parse([entry as string])).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });

    it('keeps the entries as given', () => {
      expect(AddressAllowList.parse(['10.0.0.5:443']).entries).toEqual(['10.0.0.5:443']);
    });
  });
});
