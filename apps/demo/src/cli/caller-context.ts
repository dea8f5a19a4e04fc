import { ToolContext, generateRequestId } from '@milpa/core';

/** The channels the CLI can call and inspect as. */
export const CALLER_CHANNELS = Object.freeze(['cli', 'mcp', 'web', 'telegram'] as const);

/** One of {@link CALLER_CHANNELS}. */
export type CallerChannel = (typeof CALLER_CHANNELS)[number];

/** The caller options of `inspect` and `call`. */
export interface CallerOptions {
  /** The channel; default `cli`. */
  readonly channel?: CallerChannel;
  /** The principal; omitted means none (anonymous), except on `cli`. */
  readonly actor?: string;
  /** The scopes held; omitted means none, except on `cli`. */
  readonly scopes?: readonly string[];
  /** The request id; default a generated one. */
  readonly requestId?: string;
  /** Build the context in plan mode. */
  readonly plan?: boolean;
  /** The agent run the call belongs to; omitted means none. */
  readonly runId?: string;
}

/** How each channel's default caller is built, for `--help`. */
export const CALLER_HELP = `
Callers (--channel, --actor, --scope):
  cli       ToolContext.cli(): principal "cli", scopes * (the trusted local operator).
            --actor / --scope replace the principal / the scopes.
  mcp       ToolContext.mcp(): principal from --actor, scopes from --scope. Without --actor the
            caller is anonymous (never invented), and the mcp policy (require_auth) denies it.
  web       principal from --actor, scopes from --scope; anonymous without --actor (denied: require_auth).
  telegram  principal from --actor, scopes from --scope; anonymous without --actor (allowed).
            Mutating tools need a confirmation round trip on telegram.
  --scope repeats or takes a comma list: --scope notes:read --scope notes:write, or --scope notes:read,notes:write.`;

/**
 * The `ToolContext` of a CLI caller. `cli` is `ToolContext.cli()` (principal `cli`, scopes `*`)
 * unless `actor` or `scopes` replace those; every other channel gets exactly the principal and the
 * scopes given, and no principal at all when `actor` is omitted — an anonymous caller is never
 * given a made-up name.
 *
 * @example
 * buildCallerContext({ channel: 'mcp', scopes: ['notes:read'] }).principal; // null
 * buildCallerContext({}).scopes; // ['*']
 */
export function buildCallerContext(options: CallerOptions): ToolContext {
  const channel = options.channel ?? 'cli';
  const requestId = options.requestId;
  let context: ToolContext;
  if (channel === 'cli') {
    context = ToolContext.cli(requestId);
    if (options.actor !== undefined || options.scopes !== undefined) {
      context = context.with({ principal: options.actor ?? context.principal, scopes: options.scopes ?? context.scopes });
    }
  } else if (channel === 'mcp') {
    // ToolContext.mcp() would use the placeholder principal 'mcp' for an omitted one; pass null instead.
    context = ToolContext.mcp(requestId ?? generateRequestId(), options.actor ?? null, options.scopes ?? []);
  } else {
    context = new ToolContext({ channel, principal: options.actor ?? null, scopes: options.scopes ?? [], requestId });
  }
  if (options.runId !== undefined) context = context.with({ runId: options.runId });
  return options.plan === true ? context.asPlan() : context;
}
