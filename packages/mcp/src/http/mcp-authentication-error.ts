import { MilpaError } from '@milpa/core';

/**
 * Thrown by an `McpAuthenticator` for credentials that were presented but are not acceptable
 * (malformed, unknown, expired). `serveHttp` answers such a request with `401` and a
 * `WWW-Authenticate: Bearer error="invalid_token"` challenge; nothing runs. Code `UNAUTHORIZED`.
 */
export class McpAuthenticationError extends MilpaError {
  constructor(message: string, options: { readonly cause?: unknown } = {}) {
    super(message, { code: 'UNAUTHORIZED', cause: options.cause });
  }
}
