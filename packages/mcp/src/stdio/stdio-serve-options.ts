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
}
