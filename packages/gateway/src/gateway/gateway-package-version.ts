// The build (tsup `define`, see tsup.config.ts) replaces MILPA_GATEWAY_VERSION with the `version`
// of package.json, so the bundle carries that one string instead of the whole package.json.
declare const MILPA_GATEWAY_VERSION: string | undefined;

/** The version of `@milpa/gateway`, reported to upstreams and clients. */
export const GATEWAY_PACKAGE_VERSION: string = typeof MILPA_GATEWAY_VERSION === 'string' ? MILPA_GATEWAY_VERSION : '0.0.0-source';
