import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { JsonSchema } from '@milpa/core';
import { deepFreeze, isRecord } from '@milpa/core/kit';
import { SchemaValidator } from '@milpa/tool-runtime';
import { isStdioUpstream, type GatewayConfig, type UpstreamConfig } from './gateway-config.js';
import { GatewayConfigError, type GatewayConfigIssue } from './gateway-config-error.js';
import { GATEWAY_CONFIG_SCHEMA, HTTP_UPSTREAM_SCHEMA, STDIO_UPSTREAM_SCHEMA } from './gateway-config-schema.js';

/** Where `${NAME}` references are looked up. */
export type GatewayEnvironment = Readonly<Record<string, string | undefined>>;

/** Options of {@link parseGatewayConfig}. */
export interface ParseGatewayConfigOptions {
  /** The variables `${NAME}` and `tokenEnv` refer to (default `process.env`). */
  readonly env?: GatewayEnvironment;
  /** What was read, for messages (a file path). */
  readonly source?: string;
  /** Relative upstream `cwd`s are resolved against this directory (default: left as they are). */
  readonly baseDir?: string;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
const validator = new SchemaValidator();

/** The schema that checks upstream `index` of a config against the schema of its kind. */
function upstreamSchemaAt(index: number, schema: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { upstreams: { type: 'array', prefixItems: [...Array.from({ length: index }, () => ({})), schema] } },
  };
}

function substitute(value: string, path: string, env: GatewayEnvironment, issues: GatewayConfigIssue[]): string {
  return value.replace(REFERENCE, (_match, name: string) => {
    const found = env[name];
    if (found === undefined) {
      issues.push({ path, message: `${path}: environment variable ${name} is not set` });
      return '';
    }
    return found;
  });
}

function substituteAll(
  values: Readonly<Record<string, string>> | undefined,
  path: string,
  env: GatewayEnvironment,
  issues: GatewayConfigIssue[],
): Readonly<Record<string, string>> | undefined {
  if (values === undefined) return undefined;
  return Object.fromEntries(Object.entries(values).map(([key, value]) => [key, substitute(value, `${path}.${key}`, env, issues)]));
}

function checkUpstreams(upstreams: readonly Record<string, unknown>[], config: unknown, issues: GatewayConfigIssue[]): void {
  upstreams.forEach((upstream, index) => {
    const path = `upstreams[${index}]`;
    const hasCommand = Object.hasOwn(upstream, 'command');
    const hasUrl = Object.hasOwn(upstream, 'url');
    if (hasCommand === hasUrl) {
      issues.push({
        path,
        message: hasCommand
          ? `${path}: give either command (a child process on stdio) or url (Streamable HTTP), not both`
          : `${path}: needs command (a child process on stdio) or url (Streamable HTTP)`,
      });
      return;
    }
    const result = validator.validate(config, upstreamSchemaAt(index, hasCommand ? STDIO_UPSTREAM_SCHEMA : HTTP_UPSTREAM_SCHEMA));
    issues.push(...result.issues);
  });
}

function checkUniqueness(upstreams: readonly UpstreamConfig[], issues: GatewayConfigIssue[]): void {
  const names = new Map<string, number>();
  const prefixes = new Map<string, number>();
  upstreams.forEach((upstream, index) => {
    const seenName = names.get(upstream.name);
    if (seenName !== undefined) {
      issues.push({
        path: `upstreams[${index}].name`,
        message: `upstreams[${index}].name: '${upstream.name}' is already the name of upstreams[${seenName}]`,
      });
    } else names.set(upstream.name, index);
    const prefix = upstream.prefix ?? `${upstream.name}_`;
    const seenPrefix = prefixes.get(prefix);
    if (seenPrefix !== undefined) {
      issues.push({
        path: `upstreams[${index}].prefix`,
        message: `upstreams[${index}].prefix: '${prefix}' is already the prefix of upstreams[${seenPrefix}]; tool names would collide`,
      });
    } else prefixes.set(prefix, index);
  });
}

function resolveUpstream(
  upstream: UpstreamConfig,
  index: number,
  options: ParseGatewayConfigOptions,
  env: GatewayEnvironment,
  issues: GatewayConfigIssue[],
): UpstreamConfig {
  const path = `upstreams[${index}]`;
  if (isStdioUpstream(upstream)) {
    const environment = substituteAll(upstream.env, `${path}.env`, env, issues);
    const cwd = upstream.cwd === undefined || options.baseDir === undefined ? upstream.cwd : resolve(options.baseDir, upstream.cwd);
    return { ...upstream, ...(environment === undefined ? {} : { env: environment }), ...(cwd === undefined ? {} : { cwd }) };
  }
  const headers = substituteAll(upstream.headers, `${path}.headers`, env, issues);
  return { ...upstream, ...(headers === undefined ? {} : { headers }) };
}

/**
 * Checks a gateway configuration (already parsed from JSON) and returns it, deeply frozen, with
 * `${NAME}` references in upstream `env` and `headers` replaced from the environment. Every
 * problem is collected before anything is thrown: the schema ({@link GATEWAY_CONFIG_SCHEMA}),
 * an upstream with both or neither of `command` and `url`, duplicate upstream names or prefixes,
 * a referenced or `tokenEnv` variable that is not set, HTTP serving without tokens, a restart
 * delay range upside down.
 *
 * @throws GatewayConfigError listing every problem.
 * @example
 * const config = parseGatewayConfig(JSON.parse(text), { env: process.env });
 */
export function parseGatewayConfig(value: unknown, options: ParseGatewayConfigOptions = {}): GatewayConfig {
  const env = options.env ?? process.env;
  const source = options.source ?? 'gateway configuration';
  if (!isRecord(value)) throw new GatewayConfigError([{ path: '', message: 'the configuration must be a JSON object' }], source);
  const issues: GatewayConfigIssue[] = [...validator.validate(value, GATEWAY_CONFIG_SCHEMA).issues];
  const upstreams = Array.isArray(value['upstreams']) ? value['upstreams'].filter(isRecord) : [];
  checkUpstreams(upstreams, value, issues);
  if (issues.length > 0) throw new GatewayConfigError(issues, source);

  const config = value as unknown as GatewayConfig;
  checkUniqueness(config.upstreams, issues);
  const resolved = config.upstreams.map((upstream, index) => resolveUpstream(upstream, index, options, env, issues));
  const server = config.server ?? {};
  if (server.transport === 'http' && (server.tokens ?? []).length === 0) {
    issues.push({
      path: 'server.tokens',
      message: 'server.tokens: serving over http needs at least one token (clients authenticate with a bearer token)',
    });
  }
  (server.tokens ?? []).forEach((token, index) => {
    const found = env[token.tokenEnv];
    if (found === undefined || found === '') {
      issues.push({
        path: `server.tokens[${index}].tokenEnv`,
        message: `server.tokens[${index}].tokenEnv: environment variable ${token.tokenEnv} is not set`,
      });
    }
  });
  const restart = config.restart ?? {};
  if ((restart.initialDelayMs ?? 500) > (restart.maxDelayMs ?? 30_000)) {
    issues.push({ path: 'restart', message: 'restart: initialDelayMs must not be larger than maxDelayMs' });
  }
  if (issues.length > 0) throw new GatewayConfigError(issues, source);
  return deepFreeze(structuredClone({ ...config, upstreams: resolved }));
}

/**
 * Reads and checks a gateway configuration file (JSON). Relative upstream `cwd`s are resolved
 * against the file's directory.
 *
 * @throws GatewayConfigError when the file cannot be read, is not JSON, or is not a valid configuration.
 * @example
 * const config = await loadGatewayConfig('gateway.json');
 */
export async function loadGatewayConfig(path: string, env: GatewayEnvironment = process.env): Promise<GatewayConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new GatewayConfigError(
      [{ path: '', message: `cannot read the file: ${(error as Error).message}` }],
      `gateway configuration ${path}`,
      { cause: error },
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new GatewayConfigError([{ path: '', message: `not valid JSON: ${(error as Error).message}` }], `gateway configuration ${path}`, {
      cause: error,
    });
  }
  return parseGatewayConfig(value, { env, source: `gateway configuration ${path}`, baseDir: dirname(resolve(path)) });
}
