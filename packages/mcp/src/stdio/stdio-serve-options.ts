import type { Readable, Writable } from 'node:stream';
import type { McpServerOptions } from '../server/mcp-server-options.js';

/** Options of `serveStdio`: the trusted local caller and the server options. */
export interface StdioServeOptions extends McpServerOptions {
  /** The principal every call runs as; default `'stdio'`. */
  readonly principal?: string;
  /** The scopes every call holds; default `['*']` (the process boundary is the trust boundary). */
  readonly scopes?: readonly string[];
  /** Where JSON-RPC messages arrive; default `process.stdin`. */
  readonly stdin?: Readable;
  /** Where JSON-RPC messages go; default `process.stdout` (so never write anything else to it). */
  readonly stdout?: Writable;
  /** The longest line (one message) read from stdin, in bytes; default 4 MiB. A longer one is dropped and answered `-32600`. */
  readonly maxLineBytes?: number;
  /** The deepest nesting of arrays and objects a message may have; default 64. Checked before parsing; deeper is answered `-32600`. */
  readonly maxJsonDepth?: number;
}
