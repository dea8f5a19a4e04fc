import { describe, expect, it } from 'vitest';
import { clientAddressKey } from './client-address-key.js';

describe('clientAddressKey', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:127.0.0.1', '127.0.0.1'],
    ['2001:db8:85a3:1:2:3:4:5', '2001:db8:85a3:1::/64'],
    ['2001:0db8:0000:0001:ffff:0:0:1', '2001:db8:0:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:aaaa::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
    ['', 'unknown'],
  ])('keys %s as %s', (address, key) => {
    expect(clientAddressKey(address)).toBe(key);
  });

  it('puts every address of one IPv6 /64 under one key, and another /64 under another', () => {
    const a = clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(clientAddressKey('2001:db8:1:2::9')).toBe(a);
    expect(clientAddressKey('2001:db8:1:3::9')).not.toBe(a);
  });
});
