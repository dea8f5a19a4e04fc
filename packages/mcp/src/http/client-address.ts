import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { MilpaError } from '@milpa/core';

/**
 * How many proxies in front of the server are trusted to name the client in `X-Forwarded-For`:
 * `false` (the default) trusts none and the client is the socket's peer; `true` trusts one (the
 * address the nearest proxy appended, the rightmost entry); a number `n` trusts `n` proxies (the
 * `n`-th entry from the right).
 */
export type TrustProxy = boolean | number;

/** How many `X-Forwarded-For` hops `trustProxy` trusts (0 for none). @throws MilpaError `INVALID_ARGUMENT`. */
export function trustedHops(trustProxy: TrustProxy | undefined): number {
  if (trustProxy === undefined || trustProxy === false) return 0;
  if (trustProxy === true) return 1;
  if (!Number.isInteger(trustProxy) || trustProxy < 0 || trustProxy > 32) {
    throw new MilpaError(`serveHttp option trustProxy must be a boolean or an integer from 0 to 32, got ${String(trustProxy)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return trustProxy;
}

/**
 * The client's address for limits and logs: the socket's peer, or with `hops` trusted proxies the
 * address they recorded in `X-Forwarded-For` (the `hops`-th valid entry from the right). A header
 * missing, too short or naming no IP address falls back to the peer, so a client cannot choose its
 * own key by sending the header to a server no proxy fronts.
 */
export function clientAddressOf(request: IncomingMessage, hops: number): string | undefined {
  const peer = request.socket.remoteAddress;
  if (hops === 0) return peer;
  const header = request.headers['x-forwarded-for'];
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === undefined || text.length > 4096) return peer;
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const chosen = entries[entries.length - hops];
  return chosen !== undefined && isIP(chosen) !== 0 ? chosen : peer;
}
