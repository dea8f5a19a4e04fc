import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

// The small HTTP helpers of the MCP endpoint: refusals as JSON-RPC errors, and request details.

/** An HTTP refusal: status, JSON-RPC error code and message, extra headers. */
export type Refusal = {
  readonly status: number;
  readonly code: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
};

export function initializeRequestOf(body: unknown): { params: { protocolVersion: string } } | undefined {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  return messages.find((message) => isInitializeRequest(message)) as { params: { protocolVersion: string } } | undefined;
}

// Answers after which the connection is closed: a client refused for who it is, how much it sends or
// how fast, gets no kept-alive socket to hold a connection slot with.
const CLOSING_STATUSES: ReadonlySet<number> = new Set([400, 401, 403, 404, 405, 408, 413, 429, 503]);

export function sendError(response: ServerResponse, refusal: Refusal): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const closing = CLOSING_STATUSES.has(refusal.status) ? { Connection: 'close' } : undefined;
  response.writeHead(refusal.status, { 'Content-Type': 'application/json', ...closing, ...refusal.headers });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: refusal.code, message: refusal.message }, id: null }));
}

export function refuse(status: number, code: number, message: string, headers?: Record<string, string>): Refusal {
  return headers === undefined ? { status, code, message } : { status, code, message, headers };
}

export function isHttpUrl(value: string): boolean {
  try {
    const protocol = new URL(value).protocol;
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

export function pathnameOf(target: string): string {
  try {
    return new URL(target, 'http://localhost').pathname;
  } catch {
    return target;
  }
}

/** Sets a request header for the SDK transport, which reads `rawHeaders`. */
export function setRawHeader(request: IncomingMessage, name: string, value: string): void {
  const raw = request.rawHeaders;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]?.toLowerCase() === name) {
      raw[index + 1] = value;
      return;
    }
  }
  raw.push(name, value);
}
