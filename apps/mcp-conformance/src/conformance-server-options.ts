import type { HttpServeOptions } from '@milpa/mcp';

/**
 * How the fixture server is served: Streamable HTTP on loopback (so DNS-rebinding protection is
 * on by default). The suite's client sends no credentials, so every request is authenticated as
 * the local principal `conformance-suite`; the `mcp` channel policy would otherwise deny it, as it
 * should deny any anonymous caller.
 */
export const CONFORMANCE_SERVER_OPTIONS: HttpServeOptions = Object.freeze({
  name: 'milpa-conformance',
  host: '127.0.0.1',
  authenticate: () => ({ principal: 'conformance-suite', scopes: [] }),
});
