import type { JsonSchema } from '@milpa/core';

const NAME = '^[A-Za-z0-9_-]{1,64}$';
const TOOL_NAME = '^[A-Za-z0-9_.-]{1,128}$';
const PREFIX = '^[A-Za-z0-9_.-]{0,64}$';
const STRINGS = { type: 'array', items: { type: 'string', minLength: 1 } } as const;
const STRING_MAP = { type: 'object', additionalProperties: { type: 'string' } } as const;

const TOOL_POLICY = {
  type: 'object',
  additionalProperties: false,
  properties: {
    scopes: STRINGS,
    mutating: { type: 'boolean' },
    requiresConfirmation: { type: 'boolean' },
    approval: { enum: ['terminal', 'host'] },
    rateCost: { type: 'number', exclusiveMinimum: 0 },
    maxResultTokens: { type: 'integer', minimum: 0 },
    timeoutMs: { type: 'integer', minimum: 1 },
  },
} as const;

const UPSTREAM_COMMON = {
  name: { type: 'string', pattern: NAME },
  prefix: { type: 'string', pattern: PREFIX },
  defaults: TOOL_POLICY,
  tools: { type: 'object', propertyNames: { pattern: TOOL_NAME }, additionalProperties: TOOL_POLICY },
} as const;

/** The JSON Schema of an upstream started as a child process (`command`). */
export const STDIO_UPSTREAM_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'command'],
  properties: {
    ...UPSTREAM_COMMON,
    command: { type: 'string', minLength: 1 },
    args: { type: 'array', items: { type: 'string' } },
    env: STRING_MAP,
    cwd: { type: 'string', minLength: 1 },
    stderr: { enum: ['inherit', 'ignore'] },
  },
};

/** The JSON Schema of an upstream reached over Streamable HTTP (`url`). */
export const HTTP_UPSTREAM_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'url'],
  properties: {
    ...UPSTREAM_COMMON,
    url: { type: 'string', pattern: '^https?://' },
    headers: STRING_MAP,
  },
};

/**
 * The JSON Schema (2020-12) a gateway configuration must satisfy; `parseGatewayConfig` checks it (each
 * upstream against {@link STDIO_UPSTREAM_SCHEMA} or {@link HTTP_UPSTREAM_SCHEMA}) and then what a
 * schema cannot say (unique names and prefixes, environment variables present).
 */
export const GATEWAY_CONFIG_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['upstreams'],
  properties: {
    $schema: { type: 'string' },
    name: { type: 'string', minLength: 1 },
    upstreams: {
      type: 'array',
      minItems: 1,
      items: { type: 'object' },
    },
    deny: STRINGS,
    groups: { type: 'object', propertyNames: { pattern: '^group:' }, additionalProperties: STRINGS },
    rateLimit: {
      type: 'object',
      additionalProperties: false,
      properties: {
        windowSeconds: { type: 'number', exclusiveMinimum: 0 },
        maxTokens: { type: 'number', exclusiveMinimum: 0 },
        cost: { type: 'number', exclusiveMinimum: 0 },
        mutatingCost: { type: 'number', exclusiveMinimum: 0 },
      },
    },
    maxResultTokens: { type: 'integer', minimum: 0 },
    restart: {
      type: 'object',
      additionalProperties: false,
      properties: {
        initialDelayMs: { type: 'integer', minimum: 1 },
        maxDelayMs: { type: 'integer', minimum: 1 },
      },
    },
    server: {
      type: 'object',
      additionalProperties: false,
      properties: {
        transport: { enum: ['stdio', 'http'] },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        host: { type: 'string', minLength: 1 },
        tokens: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['tokenEnv', 'principal'],
            properties: {
              tokenEnv: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
              principal: { type: 'string', minLength: 1 },
              scopes: STRINGS,
            },
          },
        },
        principal: { type: 'string', minLength: 1 },
        scopes: STRINGS,
        confirmation: { enum: ['elicit', 'token'] },
      },
    },
  },
};
