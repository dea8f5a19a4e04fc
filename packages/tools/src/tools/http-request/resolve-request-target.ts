import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { ToolError } from '../../lifecycle/tool-error.js';
import type { AddressAllowList } from './address-allow-list.js';
import { forbiddenAddressReason } from './forbidden-addresses.js';
import { forbiddenHostnameReason } from './forbidden-hostnames.js';
import { abortable } from '../../lifecycle/abortable.js';

/**
 * Resolves a host name to all its addresses, with the signature of `dns.promises.lookup` called
 * with `{ all: true }` (the default). Inject one to map test names such as `evil.test`.
 */
export type HostLookup = (hostname: string, options: { all: true }) => Promise<readonly LookupAddress[]>;

/** What {@link resolveRequestTarget} checks a URL against. */
export interface RequestTargetPolicy {
  /** Resolves host names; called once per request hop. */
  readonly lookup: HostLookup;
  /** Exact `address:port` endpoints allowed although their address is forbidden. */
  readonly allowedAddresses: AddressAllowList;
  /** Host names the tool may reach at all (`example.com`, `*.example.com`), or null for any public host. */
  readonly allowedHosts: readonly string[] | null;
}

/** A checked destination: connect to `address` on `port`, and nowhere else. */
export interface RequestTarget {
  /** The URL of the request. */
  readonly url: URL;
  /** The URL's host name without IPv6 brackets (for TLS server name checks). */
  readonly hostname: string;
  /** The checked IP address to connect to. */
  readonly address: string;
  /** The address family of `address`. */
  readonly family: 4 | 6;
  /** The port to connect to (the URL's, or 80 / 443). */
  readonly port: number;
}

/** True when `hostname` is listed in `allowedHosts` exactly or under a `*.` entry (subdomains only). */
function isAllowedHost(hostname: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((entry) => {
    const allowed = entry.toLowerCase().replace(/\.+$/, '');
    return allowed.startsWith('*.') ? hostname.endsWith(allowed.slice(1)) : hostname === allowed;
  });
}

/**
 * The guard every request hop passes before a socket opens: refuses forbidden host names (cloud
 * metadata, `localhost`) and hosts outside `allowedHosts`; checks an IP literal directly; otherwise
 * resolves the name exactly once and refuses it when **any** of its addresses is forbidden (a name
 * mixing public and internal addresses is treated as hostile, and the outcome never depends on
 * which address a client would pick). The result names the single checked address the caller must
 * connect to, so a second, different answer from DNS (rebinding) can never be used.
 *
 * An address in a forbidden range passes only when `allowedAddresses` lists that exact address and
 * the URL's port.
 *
 * @throws ToolError `HOST_NOT_ALLOWED`, `ADDRESS_FORBIDDEN`, or `DNS_LOOKUP_FAILED` (with the cause).
 * @example const target = await resolveRequestTarget(parseRequestUrl('https://example.com/'), policy);
 */
export async function resolveRequestTarget(url: URL, policy: RequestTargetPolicy, signal?: AbortSignal): Promise<RequestTarget> {
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  const named = hostname.toLowerCase().replace(/\.+$/, '');

  const nameReason = forbiddenHostnameReason(named);
  if (nameReason !== null) {
    throw new ToolError('HOST_NOT_ALLOWED', `Refused ${url.href}: ${hostname} is a ${nameReason}.`, { details: { host: hostname } });
  }
  if (policy.allowedHosts !== null && !isAllowedHost(named, policy.allowedHosts)) {
    throw new ToolError('HOST_NOT_ALLOWED', `Refused ${url.href}: ${hostname} is not among the allowed hosts.`, {
      details: { host: hostname },
    });
  }

  const checkAddress = (address: string, via: string): void => {
    if (policy.allowedAddresses.allows(address, port)) return;
    const reason = forbiddenAddressReason(address);
    if (reason === null) return;
    throw new ToolError('ADDRESS_FORBIDDEN', `Refused ${url.href}: ${via}${address} is ${reason}.`, {
      details: { host: hostname, address, port, reason },
    });
  };

  const literal = isIP(hostname);
  if (literal !== 0) {
    checkAddress(hostname, '');
    return Object.freeze({ url, hostname, address: hostname, family: literal as 4 | 6, port });
  }

  let resolved: readonly LookupAddress[];
  try {
    resolved = await abortable(policy.lookup(hostname, { all: true }), signal);
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ToolError('DNS_LOOKUP_FAILED', `Could not resolve ${hostname}.`, { cause: error, details: { host: hostname } });
  }
  if (!Array.isArray(resolved) || resolved.length === 0) {
    throw new ToolError('DNS_LOOKUP_FAILED', `${hostname} resolved to no address.`, { details: { host: hostname } });
  }
  const addresses = resolved.map((entry) => (typeof entry?.address === 'string' ? entry.address : ''));
  for (const address of addresses) checkAddress(address, `${hostname} resolves to `);
  const address = addresses[0] as string;
  return Object.freeze({ url, hostname, address, family: isIP(address) as 4 | 6, port });
}
