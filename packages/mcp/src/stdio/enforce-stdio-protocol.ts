import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** JSON-RPC: the line is not JSON. */
export const PARSE_ERROR = -32700;
/** JSON-RPC: JSON, but not a single valid message (a batch, a message of no known shape). */
export const INVALID_REQUEST = -32600;

/** A failure to read a line: JSON that did not parse, or a message of the wrong shape (a ZodError). */
function isReadError(error: Error): 'parse' | 'invalid' | null {
  if (error instanceof SyntaxError) return 'parse';
  if (error.name === 'ZodError' || Array.isArray((error as { issues?: unknown }).issues)) return 'invalid';
  return null;
}

function reply(transport: StdioServerTransport, message: unknown): void {
  // Best effort: a client that cannot be written to has gone, and stdin's end closes the server.
  transport.send(message as JSONRPCMessage).catch(() => undefined);
}

/**
 * Makes a stdio connection answer what the SDK transport would only report to `onerror`: a line
 * that is not JSON gets `-32700 Parse error`, and JSON that is not one valid message (a batch, an
 * object of no known shape) gets `-32600 Invalid Request`, both with `id: null` as JSON-RPC asks.
 * Until the client has sent `initialize`, every other request (but `ping`) is refused with
 * `-32600` and never reaches a handler, so no tool runs before the session exists; a second
 * `initialize` is refused with `-32600` too, so the negotiated protocol version cannot change.
 * Call it after `server.connect(transport)`.
 */
export function enforceStdioProtocol(server: Server, transport: StdioServerTransport): void {
  const onerror = transport.onerror;
  const onmessage = transport.onmessage;
  transport.onerror = (error: Error) => {
    onerror?.(error);
    const kind = isReadError(error);
    if (kind === null) return;
    reply(transport, {
      jsonrpc: '2.0',
      id: null,
      error:
        kind === 'parse'
          ? { code: PARSE_ERROR, message: 'Parse error: the line is not valid JSON' }
          : { code: INVALID_REQUEST, message: 'Invalid Request: send one JSON-RPC message per line (batches are not supported)' },
    });
  };
  let initializeSeen = false;
  transport.onmessage = (message: JSONRPCMessage) => {
    const request = message as { id?: unknown; method?: unknown };
    const isRequest = typeof request.method === 'string' && request.id !== undefined;
    if (isRequest && request.method === 'initialize') {
      // One connection, one session: a second initialize would renegotiate (even downgrade) the protocol.
      if (initializeSeen) {
        reply(transport, {
          jsonrpc: '2.0',
          id: request.id,
          error: { code: INVALID_REQUEST, message: 'Invalid Request: this connection is already initialized' },
        });
        return;
      }
      initializeSeen = true;
    }
    if (isRequest && request.method !== 'initialize' && request.method !== 'ping' && server.getClientVersion() === undefined) {
      reply(transport, {
        jsonrpc: '2.0',
        id: request.id,
        error: { code: INVALID_REQUEST, message: `Invalid Request: '${String(request.method)}' before initialize; send initialize first` },
      });
      return;
    }
    onmessage?.(message);
  };
}
