/**
 * What `serveHttp` publishes about itself as an OAuth 2.0 protected resource (RFC 9728), so that
 * a client refused with `401` can find where to obtain a token.
 */
export interface ProtectedResourceOptions {
  /**
   * The resource identifier: the endpoint's public URL (e.g. `https://mcp.example.com/mcp`). Set it
   * behind a proxy or on a wildcard address; by default it is built from the request's `Host` header
   * and the endpoint path.
   */
  readonly resource?: string;
  /** Issuer URLs of the authorization servers that grant tokens for this resource. */
  readonly authorizationServers?: readonly string[];
  /** The scopes this resource understands (published, and named in the `401` challenge). */
  readonly scopesSupported?: readonly string[];
  /** A human-readable name of the resource. */
  readonly resourceName?: string;
  /** A URL of documentation for developers. */
  readonly resourceDocumentation?: string;
}
