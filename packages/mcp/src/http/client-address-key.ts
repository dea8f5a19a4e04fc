import { isIP } from 'node:net';

/**
 * The key under which requests from one client address are counted: an IPv4 address as is (also
 * when it arrives IPv4-mapped, `::ffff:203.0.113.7`), an IPv6 address by its /64 prefix (one host
 * usually holds a whole /64, so counting single IPv6 addresses would let it rotate past any limit),
 * and `unknown` when the socket has no address.
 */
export function clientAddressKey(address: string | undefined): string {
  if (address === undefined || address === '') return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  if (mapped?.[1] !== undefined) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}
