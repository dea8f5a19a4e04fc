import type { IncomingMessage } from 'node:http';
import type { ProtectedResourceOptions } from './protected-resource-options.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
/** A hostname, IPv4 address or bracketed IPv6 address, with an optional port. */
const AUTHORITY = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The OAuth protected-resource metadata of an MCP endpoint (RFC 9728): the document served at
 * `/.well-known/oauth-protected-resource` (and at that path followed by the endpoint path, where
 * RFC 9728 places it for a resource with a path), and the `WWW-Authenticate` challenges that point
 * to it.
 */
export class ProtectedResourceMetadata {
  readonly #options: ProtectedResourceOptions;
  readonly #endpointPath: string;
  readonly #fallbackAuthority: () => string;
  readonly #hostAccepted: (host: string) => boolean;

  /**
   * @param endpointPath the MCP endpoint path (`/mcp`).
   * @param fallbackAuthority the bound `host:port`, used when the request's `Host` is not one the server accepts.
   * @param hostAccepted whether the server accepts this `Host` header on its endpoint; only such a Host is
   *   written into the document. Default: any well-formed authority (a server that checks no Host).
   */
  constructor(
    options: ProtectedResourceOptions,
    endpointPath: string,
    fallbackAuthority: () => string,
    hostAccepted: (host: string) => boolean = () => true,
  ) {
    this.#options = options;
    this.#endpointPath = endpointPath;
    this.#fallbackAuthority = fallbackAuthority;
    this.#hostAccepted = hostAccepted;
  }

  /** True when the document is the same for every request (its resource is configured), so it may be cached. */
  get isFixed(): boolean {
    return this.#options.resource !== undefined;
  }

  /** True when `pathname` is one of the metadata document's paths. */
  isMetadataPath(pathname: string): boolean {
    return pathname === WELL_KNOWN || pathname === `${WELL_KNOWN}${this.#endpointPath}`;
  }

  /**
   * The resource identifier: the configured `resource`, else built from the request's `Host` when
   * the server accepts that Host on its endpoint (a well-formed authority the Host check passes),
   * else from the bound address. An arbitrary Host header is never echoed.
   */
  resource(request: IncomingMessage): string {
    if (this.#options.resource !== undefined) return this.#options.resource;
    const host = request.headers.host;
    const authority = host !== undefined && AUTHORITY.test(host) && this.#hostAccepted(host) ? host : this.#fallbackAuthority();
    return `http://${authority}${this.#endpointPath}`;
  }

  /** The URL of the metadata document for this request's resource. */
  metadataUrl(request: IncomingMessage): string {
    const resource = new URL(this.resource(request));
    const path = resource.pathname === '/' ? '' : resource.pathname;
    return `${resource.origin}${WELL_KNOWN}${path}`;
  }

  /** The metadata document (JSON). */
  document(request: IncomingMessage): Record<string, unknown> {
    const options = this.#options;
    return {
      resource: this.resource(request),
      authorization_servers: [...(options.authorizationServers ?? [])],
      bearer_methods_supported: ['header'],
      ...(options.scopesSupported === undefined ? {} : { scopes_supported: [...options.scopesSupported] }),
      ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
      ...(options.resourceDocumentation === undefined ? {} : { resource_documentation: options.resourceDocumentation }),
    };
  }

  /**
   * The `WWW-Authenticate` value of a `401`: without an error for a request that carried no
   * credentials, with `error="invalid_token"` and a description for credentials that were refused.
   */
  challenge(request: IncomingMessage, refused?: string): string {
    const parameters: string[] = [];
    if (refused !== undefined) {
      parameters.push('error="invalid_token"', `error_description="${quote(refused)}"`);
    }
    parameters.push(`resource_metadata="${quote(this.metadataUrl(request))}"`);
    const scopes = this.#options.scopesSupported;
    if (scopes !== undefined && scopes.length > 0) parameters.push(`scope="${quote(scopes.join(' '))}"`);
    return `Bearer ${parameters.join(', ')}`;
  }
}

/** A header parameter value: no quotes, backslashes or control characters. */
function quote(value: string): string {
  return value.replace(/["\\\u0000-\u001f\u007f]/g, "'");
}
