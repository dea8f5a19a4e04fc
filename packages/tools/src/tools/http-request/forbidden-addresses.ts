import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** One address range the HTTP tool never connects to, with the reason given when it is refused. */
export interface ForbiddenAddressRange {
  /** The network address of the range, e.g. `127.0.0.0` or `fe80::`. */
  readonly network: string;
  /** The prefix length, e.g. 8 for `127.0.0.0/8`. */
  readonly prefix: number;
  /** The address family of the range. */
  readonly family: 'ipv4' | 'ipv6';
  /** What the range is, for the refusal message. */
  readonly label: string;
}

/**
 * Every range the HTTP tool refuses to connect to: this host, private networks, link-local (and the
 * cloud metadata address 169.254.169.254 inside it), shared and reserved space, documentation and
 * benchmark nets, multicast and broadcast, and every IPv6 form that embeds an IPv4 address
 * (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64, 6to4, Teredo), so an IPv4 range cannot be
 * reached in disguise. IPv4-mapped `::ffff:0:0/96` is refused as a whole: a public IPv4 address can always be
 * written in its plain form.
 */
export const FORBIDDEN_ADDRESS_RANGES: readonly ForbiddenAddressRange[] = Object.freeze(
  (
    [
      ['0.0.0.0', 8, 'ipv4', '"this network" (0.0.0.0/8, including the unspecified address)'],
      ['10.0.0.0', 8, 'ipv4', 'private network (10.0.0.0/8)'],
      ['100.64.0.0', 10, 'ipv4', 'shared address space / CGNAT (100.64.0.0/10)'],
      ['127.0.0.0', 8, 'ipv4', 'loopback (127.0.0.0/8)'],
      ['169.254.0.0', 16, 'ipv4', 'link-local and cloud metadata (169.254.0.0/16)'],
      ['172.16.0.0', 12, 'ipv4', 'private network (172.16.0.0/12)'],
      ['192.0.0.0', 24, 'ipv4', 'IETF protocol assignments (192.0.0.0/24)'],
      ['192.0.2.0', 24, 'ipv4', 'documentation network (192.0.2.0/24)'],
      ['192.88.99.0', 24, 'ipv4', '6to4 relay anycast (192.88.99.0/24)'],
      ['192.168.0.0', 16, 'ipv4', 'private network (192.168.0.0/16)'],
      ['198.18.0.0', 15, 'ipv4', 'benchmarking network (198.18.0.0/15)'],
      ['198.51.100.0', 24, 'ipv4', 'documentation network (198.51.100.0/24)'],
      ['203.0.113.0', 24, 'ipv4', 'documentation network (203.0.113.0/24)'],
      ['224.0.0.0', 4, 'ipv4', 'multicast (224.0.0.0/4)'],
      ['240.0.0.0', 4, 'ipv4', 'reserved (240.0.0.0/4, including broadcast 255.255.255.255)'],
      ['::', 128, 'ipv6', 'unspecified address (::)'],
      ['::1', 128, 'ipv6', 'loopback (::1)'],
      ['::', 96, 'ipv6', 'IPv4-compatible IPv6 (::/96)'],
      ['::ffff:0:0', 96, 'ipv6', 'IPv4-mapped IPv6 (::ffff:0:0/96)'],
      ['::ffff:0:0:0', 96, 'ipv6', 'IPv4-translated IPv6 (::ffff:0:0:0/96)'],
      ['64:ff9b::', 96, 'ipv6', 'NAT64 (64:ff9b::/96)'],
      ['64:ff9b:1::', 48, 'ipv6', 'local-use NAT64 (64:ff9b:1::/48)'],
      ['100::', 64, 'ipv6', 'discard-only (100::/64)'],
      ['2001::', 32, 'ipv6', 'Teredo (2001::/32)'],
      ['2001:db8::', 32, 'ipv6', 'documentation network (2001:db8::/32)'],
      ['2002::', 16, 'ipv6', '6to4 (2002::/16)'],
      ['fc00::', 7, 'ipv6', 'unique local address (fc00::/7)'],
      ['fe80::', 10, 'ipv6', 'link-local (fe80::/10)'],
      ['fec0::', 10, 'ipv6', 'site-local (fec0::/10)'],
      ['ff00::', 8, 'ipv6', 'multicast (ff00::/8)'],
    ] as const
  ).map(([network, prefix, family, label]) => Object.freeze({ network, prefix, family, label })),
);

// One BlockList per range so a refusal can name its range. Each is only asked about addresses of
// its own family: Node's BlockList matches IPv4 addresses against IPv4-mapped IPv6 subnets (and the
// reverse), which would make `::ffff:0:0/96` swallow every IPv4 address.
const RANGE_LISTS = FORBIDDEN_ADDRESS_RANGES.map((range) => {
  const list = new BlockList();
  list.addSubnet(range.network, range.prefix, range.family);
  return { range, list };
});

/**
 * Why the HTTP tool must not connect to `address` (an IP literal without brackets), or null when it
 * is a public address. Anything that is not a valid IP address is refused too.
 *
 * Two checks must both pass: the labelled ranges above (which name the range in the refusal), and
 * the special-purpose registries as `ipaddr.js` knows them (IANA's IPv4 and IPv6 special-purpose
 * address registries), so a range missing from the list above is still refused: only an address
 * `ipaddr.js` classifies as global unicast is allowed.
 *
 * @example forbiddenAddressReason('169.254.169.254'); // 'link-local and cloud metadata (169.254.0.0/16)'
 */
export function forbiddenAddressReason(address: string): string | null {
  const version = isIP(address);
  if (version === 0) return 'not an IP address';
  const family = version === 4 ? 'ipv4' : 'ipv6';
  for (const { range, list } of RANGE_LISTS) {
    if (range.family === family && list.check(address, family)) return range.label;
  }
  return specialPurposeReason(address);
}

/** The special-purpose range `address` falls in by `ipaddr.js`, or null for a global unicast address. */
function specialPurposeReason(address: string): string | null {
  let range: string;
  try {
    range = ipaddr.parse(address).range();
  } catch {
    return 'not an IP address';
  }
  return range === 'unicast' ? null : `special-purpose address range (${range})`;
}
