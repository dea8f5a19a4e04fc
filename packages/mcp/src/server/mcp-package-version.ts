// The build (tsup `define`, see tsup.config.ts) replaces MILPA_MCP_VERSION with the `version` of
// package.json, so the bundle carries that one string instead of the whole package.json.
declare const MILPA_MCP_VERSION: string | undefined;

/** The version of `@milpa/mcp` that `createMcpServer` reports at `initialize` unless told otherwise. */
export const MCP_PACKAGE_VERSION: string = typeof MILPA_MCP_VERSION === 'string' ? MILPA_MCP_VERSION : '0.0.0-source';
