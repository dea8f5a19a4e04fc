/** How a client of the gateway is served: on stdin/stdout, or over Streamable HTTP. */
export type GatewayTransport = 'stdio' | 'http';

/**
 * A policy applied to gateway tools: the fields set here override the upstream's defaults, which
 * override what the upstream's own annotations say.
 */
export interface ToolPolicyConfig {
  /** Scopes of which a caller needs at least one; empty or absent: no scope needed. */
  readonly scopes?: readonly string[];
  /**
   * Whether the tool changes state. Default: `false` when the upstream marks it `readOnlyHint: true`
   * (and not `destructiveHint: true`), otherwise `true`.
   */
  readonly mutating?: boolean;
  /** Every call needs a confirmation round trip (`confirm_token`, or a form the client shows). */
  readonly requiresConfirmation?: boolean;
  /**
   * Mutating calls need approval: `'terminal'` asks y/n on the gateway's terminal (denied without
   * one), `'host'` asks the approval gate the host passed to `createGateway`.
   */
  readonly approval?: 'terminal' | 'host';
  /** Rate-budget tokens every call of the tool costs (default: the gateway's `rateLimit` costs). */
  readonly rateCost?: number;
  /** Results longer than about this many tokens (4 characters each) are cut; 0 turns the cap off. */
  readonly maxResultTokens?: number;
  /** Milliseconds the upstream has to answer before the call ends with `TIMEOUT`. */
  readonly timeoutMs?: number;
}

/** Fields every upstream has, whatever its transport. */
export interface UpstreamConfigBase {
  /** A unique name for the upstream (letters, digits, `_`, `-`); used in messages and logs. */
  readonly name: string;
  /** Prepended to each of the upstream's tool names; default `<name>_`. Must be unique across upstreams. */
  readonly prefix?: string;
  /** The policy of every tool of this upstream, before per-tool overrides. */
  readonly defaults?: ToolPolicyConfig;
  /** Per-tool policy, keyed by the tool's name on the upstream (without the prefix). */
  readonly tools?: Readonly<Record<string, ToolPolicyConfig>>;
}

/** An upstream the gateway starts as a child process and speaks MCP with on stdin/stdout. */
export interface StdioUpstreamConfig extends UpstreamConfigBase {
  /** The executable to run, e.g. `node` or `npx`. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /**
   * Environment variables for the child, on top of a minimal safe set (PATH, HOME, …): the
   * gateway's own environment is not passed on. `${NAME}` in a value is replaced by the
   * gateway's variable `NAME`.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** The child's working directory; default the gateway's. */
  readonly cwd?: string;
  /** What happens to the child's stderr: shown on the gateway's stderr (default) or dropped. */
  readonly stderr?: 'inherit' | 'ignore';
}

/** An upstream the gateway reaches over Streamable HTTP. */
export interface HttpUpstreamConfig extends UpstreamConfigBase {
  /** The upstream's MCP endpoint, `http:` or `https:`. */
  readonly url: string;
  /** Headers sent with every request to the upstream; `${NAME}` is replaced from the gateway's environment. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** One upstream MCP server. */
export type UpstreamConfig = StdioUpstreamConfig | HttpUpstreamConfig;

/** A bearer token a client may present, and who it makes the client. */
export interface GatewayTokenConfig {
  /** The environment variable holding the token (tokens never live in the file). */
  readonly tokenEnv: string;
  /** The principal the token authenticates as. */
  readonly principal: string;
  /** The scopes it grants. */
  readonly scopes?: readonly string[];
}

/** How clients reach the gateway. */
export interface GatewayServerConfig {
  /** `stdio` (default): one trusted local client; `http`: Streamable HTTP with bearer tokens. */
  readonly transport?: GatewayTransport;
  /** HTTP: the port (default 0, a free one). */
  readonly port?: number;
  /** HTTP: the address to bind (default `127.0.0.1`). */
  readonly host?: string;
  /** HTTP: the bearer tokens clients authenticate with. */
  readonly tokens?: readonly GatewayTokenConfig[];
  /** stdio: the principal the local client acts as (default `stdio`). */
  readonly principal?: string;
  /** stdio: the scopes of the local client (default `['*']`). */
  readonly scopes?: readonly string[];
  /** How confirmations are asked for: a form the client shows (`elicit`, default) or `confirm_token` calls. */
  readonly confirmation?: 'elicit' | 'token';
}

/** How an upstream that died is restarted. */
export interface RestartConfig {
  /** Delay before the first restart attempt, in milliseconds (default 500). */
  readonly initialDelayMs?: number;
  /** The longest delay between attempts (default 30 000); each failure doubles the delay up to it. */
  readonly maxDelayMs?: number;
}

/** The rate budget every caller gets per tool. */
export interface GatewayRateLimitConfig {
  /** The window in seconds (default 60). */
  readonly windowSeconds?: number;
  /** Tokens per caller, tool and window (default 100). */
  readonly maxTokens?: number;
  /** What a call of a read-only tool costs (default 1). */
  readonly cost?: number;
  /** What a call of a mutating tool costs (default 5). */
  readonly mutatingCost?: number;
}

/**
 * The whole gateway configuration, as read from `gateway.json`.
 *
 * @example
 * {
 *   "upstreams": [{ "name": "files", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/srv/docs"],
 *                   "tools": { "write_file": { "scopes": ["files:write"], "approval": "terminal" } } }],
 *   "deny": ["files_move_file"],
 *   "server": { "transport": "http", "port": 3100,
 *               "tokens": [{ "tokenEnv": "AGENT_TOKEN", "principal": "agent:ci", "scopes": ["files:read"] }] }
 * }
 */
export interface GatewayConfig {
  /** Shown to clients as the server's name (default `milpa-gateway`). */
  readonly name?: string;
  /** The MCP servers whose tools the gateway serves; at least one. */
  readonly upstreams: readonly UpstreamConfig[];
  /** Gateway tool names (with prefix) or `group:` names that are never registered, listed or callable. */
  readonly deny?: readonly string[];
  /** Named groups of gateway tool names for `deny`, each name starting with `group:`. */
  readonly groups?: Readonly<Record<string, readonly string[]>>;
  /** The rate budget (applies to every caller; per-tool costs in `rateCost`). */
  readonly rateLimit?: GatewayRateLimitConfig;
  /** The result cap of tools that set none (default 2 500 tokens; 0: off). */
  readonly maxResultTokens?: number;
  /** How dead upstreams are restarted. */
  readonly restart?: RestartConfig;
  /** How clients reach the gateway. */
  readonly server?: GatewayServerConfig;
}

/** True for an upstream the gateway starts as a child process. */
export function isStdioUpstream(upstream: UpstreamConfig): upstream is StdioUpstreamConfig {
  return 'command' in upstream;
}
