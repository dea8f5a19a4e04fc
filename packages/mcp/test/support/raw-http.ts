import { request } from 'node:http';

/** A raw HTTP response: status, headers and the body text. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** The JSON-RPC initialize request a client opens a session with. */
export const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
};

/**
 * Sends one request with exactly the given headers (unlike fetch, a `Host` header is sent as is,
 * which DNS-rebinding tests need) and reads the whole response.
 */
export function rawRequest(url: string, method: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method,
        headers: { Accept: 'application/json, text/event-stream', ...headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** POSTs `message` as JSON with the given extra headers. */
export function rawPost(url: string, message: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest(url, 'POST', { 'Content-Type': 'application/json', ...headers }, JSON.stringify(message));
}
