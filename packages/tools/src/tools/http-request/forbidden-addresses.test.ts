import { describe, expect, it } from 'vitest';
import { FORBIDDEN_ADDRESS_RANGES, forbiddenAddressReason } from './forbidden-addresses.js';

describe('forbiddenAddressReason', () => {
  it.each([
    ['0.0.0.0', '"this network"'],
    ['0.1.2.3', '"this network"'],
    ['10.255.0.1', 'private network (10.0.0.0/8)'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['169.254.169.254', 'cloud metadata'],
    ['172.16.0.1', 'private network (172.16.0.0/12)'],
    ['172.31.255.255', 'private network (172.16.0.0/12)'],
    ['192.0.0.8', 'IETF protocol assignments'],
    ['192.0.2.1', 'documentation'],
    ['192.168.0.1', 'private network (192.168.0.0/16)'],
    ['198.18.0.1', 'benchmarking'],
    ['198.19.255.255', 'benchmarking'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.9', 'documentation'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback (::1)'],
    ['0:0:0:0:0:0:0:1', 'loopback (::1)'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::ffff:127.0.0.1', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'IPv4-mapped'],
    ['::ffff:8.8.8.8', 'IPv4-mapped'],
    ['::ffff:0:127.0.0.1', 'IPv4-translated'],
    ['::ffff:0:7f00:1', 'IPv4-translated'],
    ['::ffff:0:169.254.169.254', 'IPv4-translated'],
    ['::ffff:0:8.8.8.8', 'IPv4-translated'],
    ['0:0:0:0:ffff:0:a00:1', 'IPv4-translated'],
    ['2001:2::1', 'special-purpose address range (benchmarking)'],
    ['2001:10::1', 'special-purpose address range'],
    ['2001:20::1', 'special-purpose address range'],
    ['192.31.196.1', 'special-purpose address range'],
    ['64:ff9b::7f00:1', 'NAT64'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['2002:7f00:1::', '6to4'],
    ['fc00::1', 'unique local'],
    ['fdff:ffff::1', 'unique local'],
    ['fe80::1', 'link-local (fe80::/10)'],
    ['febf::1', 'link-local (fe80::/10)'],
    ['fec0::1', 'site-local'],
    ['ff02::1', 'multicast'],
  ])('names the range of %s', (address, reason) => {
    expect(forbiddenAddressReason(address)).toContain(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.169.0.1',
    '198.20.0.1',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2a00:1450:4001:82a::200e',
  ])('returns null for the public address %s', (address) => {
    expect(forbiddenAddressReason(address)).toBeNull();
  });

  it.each(['', 'localhost', '127.0.0.1:80', '[::1]', '2130706433', '0177.0.0.1', '1.2.3', '2606:4700::1%:'])(
    'refuses %j, which is not an IP address',
    (value) => {
      expect(forbiddenAddressReason(value)).toBe('not an IP address');
    },
  );
});

describe('FORBIDDEN_ADDRESS_RANGES', () => {
  it('is frozen, so no caller can open a range at run time', () => {
    expect(Object.isFrozen(FORBIDDEN_ADDRESS_RANGES)).toBe(true);
    expect(Object.isFrozen(FORBIDDEN_ADDRESS_RANGES[0])).toBe(true);
    expect(FORBIDDEN_ADDRESS_RANGES[0]).toEqual({
      network: '0.0.0.0',
      prefix: 8,
      family: 'ipv4',
      label: '"this network" (0.0.0.0/8, including the unspecified address)',
    });
  });
});
