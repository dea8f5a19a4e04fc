/**
 * Host names the HTTP tool refuses by name, before any lookup: cloud metadata endpoints, which
 * resolve to link-local or internal addresses inside a cloud, and `localhost`. Names ending in
 * `.localhost` are refused too (RFC 6761 reserves them for loopback).
 */
export const FORBIDDEN_HOSTNAMES: readonly string[] = Object.freeze([
  'localhost',
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
]);

const NAMES: ReadonlySet<string> = new Set(FORBIDDEN_HOSTNAMES);

/**
 * Why the HTTP tool must not reach the host name `hostname` (as the WHATWG URL parser gives it:
 * lower case, no brackets), or null when the name itself is acceptable. A trailing dot is ignored,
 * so `localhost.` is refused like `localhost`.
 *
 * @example forbiddenHostnameReason('metadata.google.internal'); // 'cloud metadata or local host name'
 */
export function forbiddenHostnameReason(hostname: string): string | null {
  const name = hostname.toLowerCase().replace(/\.+$/, '');
  if (NAMES.has(name) || name.endsWith('.localhost')) return 'cloud metadata or local host name';
  return null;
}
