import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import type { RequestTarget } from './resolve-request-target.js';

/** One outgoing request of {@link sendCheckedRequest}. */
export interface CheckedRequest {
  /** The method. */
  readonly method: 'GET' | 'POST';
  /** Checked headers with lower-case names (no `host`, framing or hop-by-hop headers). */
  readonly headers: Readonly<Record<string, string>>;
  /** The body to send, or null. */
  readonly body: string | null;
  /** The most response body bytes to read; the socket is destroyed beyond it. */
  readonly maxBodyBytes: number;
  /** Certificate authorities (PEM) trusted for https beyond Node's root certificates, or empty. */
  readonly extraCa: readonly string[];
  /** Whether to read the body of this response at all (false for redirects and binary content). */
  readonly readBody: (status: number, headers: IncomingHttpHeaders) => boolean;
}

/** What {@link sendCheckedRequest} received. */
export interface CheckedResponse {
  /** The HTTP status code. */
  readonly status: number;
  /** All response headers (pick a safe subset before showing them). */
  readonly headers: IncomingHttpHeaders;
  /** The body bytes read (at most `maxBodyBytes`), or null when the body was not read. */
  readonly body: Buffer | null;
  /** True when the body went on beyond `maxBodyBytes` and was cut there. */
  readonly truncated: boolean;
}

/**
 * Sends one request to the checked address of `target` and nowhere else: the socket connects to
 * `target.address` (an IP literal, so Node performs no lookup of its own), while the `Host` header
 * and the TLS server name carry the URL's host, so virtual hosting and certificate checks still
 * work. A fresh connection each time (no agent pool), `Connection: close`, `Accept-Encoding:
 * identity` (bodies are never decompressed, so no decompression bomb). Reads at most
 * `maxBodyBytes`, then destroys the socket. Rejects with `signal.reason` when `signal` aborts
 * (at any point: connect, headers or body), or with the network error.
 *
 * @example
 * const response = await sendCheckedRequest(
 *   target,
 *   { method: 'GET', headers: {}, body: null, maxBodyBytes: 8192, readBody: () => true },
 *   signal,
 * );
 */
export function sendCheckedRequest(target: RequestTarget, request: CheckedRequest, signal: AbortSignal): Promise<CheckedResponse> {
  const { url } = target;
  const secure = url.protocol === 'https:';
  // A safety net: should Node ever look the host up after all, it can only get the checked address.
  const pinnedLookup = ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all === true) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
  const headers: Record<string, string> = {
    ...request.headers,
    host: url.host,
    connection: 'close',
    'accept-encoding': 'identity',
  };
  if (request.body !== null) headers['content-length'] = String(Buffer.byteLength(request.body));

  return new Promise<CheckedResponse>((resolve, reject) => {
    signal.throwIfAborted();
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      outcome();
    };
    const options: https.RequestOptions = {
      host: target.address,
      family: target.family,
      port: target.port,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      lookup: pinnedLookup,
      // SNI takes names only; for an IP literal Node checks the certificate against the address.
      ...(secure && isIP(target.hostname) === 0 ? { servername: target.hostname } : {}),
      // `ca` replaces Node's roots, so extra authorities are added to them, not put in their place.
      ...(secure && request.extraCa.length > 0 ? { ca: [...rootCertificates, ...request.extraCa] } : {}),
    };
    const outgoing = (secure ? https : http).request(options, (response) => {
      const status = response.statusCode ?? 0;
      if (!request.readBody(status, response.headers)) {
        finish(() => resolve({ status, headers: response.headers, body: null, truncated: false }));
        outgoing.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        const room = request.maxBodyBytes - size;
        if (chunk.length <= room) {
          chunks.push(chunk);
          size += chunk.length;
          return;
        }
        chunks.push(chunk.subarray(0, room));
        size += room;
        finish(() => resolve({ status, headers: response.headers, body: Buffer.concat(chunks, size), truncated: true }));
        // Stop reading: the rest of the body never reaches memory.
        outgoing.destroy();
      });
      response.on('end', () =>
        finish(() => resolve({ status, headers: response.headers, body: Buffer.concat(chunks, size), truncated: false })),
      );
      response.on('error', (error) => finish(() => reject(error)));
      response.on('close', () => finish(() => reject(new Error('The connection closed before the response body ended.'))));
    });
    const onAbort = (): void => {
      finish(() => reject(signal.reason));
      outgoing.destroy();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    outgoing.on('error', (error) => finish(() => reject(error)));
    outgoing.end(request.body ?? undefined);
  });
}
