import { EventDispatcher } from '@milpa/events';
import {
  RateLimitResult,
  ToolContext,
  Type,
  defineTool,
  type ConfirmationStore,
  type RateLimiter,
  type ToolArgs,
  type ToolResult,
} from '@milpa/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../support/recording-logger.js';
import { DEFAULT_SENSITIVE_FIELDS } from '../../src/audit/redactor.js';
import { ConfirmationTokenStore } from '../../src/confirmation/confirmation-token-store.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import { quietLogger } from './settle-within.js';

// Secret and public values come from disjoint alphabets that nothing else the runtime writes uses
// (request ids are hex, messages are ASCII): any Cyrillic character in an output is a leak, and a
// public value can never be "found" inside a secret or a marker by accident.
const SECRET_LETTERS = ['Ж', 'Ѣ', 'Ꙗ', 'Ѯ', 'Ѱ', 'Ѧ'];
const LEAK = /[ЖѢꙖѮѰѦ]/u;
const PUBLIC_LETTERS = ['α', 'β', 'γ', 'δ', 'ε', 'ζ'];
// Characters JSON escapes, so a secret must also be found in its escaped form.
const ESCAPED_TAIL = ['"', '\\', '\n', '\t'];

const secretText = fc
  .tuple(
    fc.string({ unit: fc.constantFrom(...SECRET_LETTERS), minLength: 2, maxLength: 12 }),
    fc.string({ unit: fc.constantFrom(...ESCAPED_TAIL), maxLength: 2 }),
  )
  .map(([core, tail]) => core + tail);
const publicText = fc.string({ unit: fc.constantFrom(...PUBLIC_LETTERS), minLength: 3, maxLength: 10 });
// Public keys never normalize to a sensitive name (checked by the last test below).
const publicKey = fc.oneof(
  fc.constantFrom('note', 'title', 'items', 'meta', 'account', 'list', 'user', 'details'),
  fc.string({ unit: fc.constantFrom('q', 'w', 'x', 'y', 'z'), minLength: 1, maxLength: 6 }),
);

/** The words of each sensitive name, for re-spelling it in every casing and separator style. */
const SENSITIVE_WORDS: readonly (readonly string[])[] = [
  ...DEFAULT_SENSITIVE_FIELDS.map((field) =>
    field
      .replace(/([a-z])([A-Z])/g, '$1_$2')
      .toLowerCase()
      .split('_'),
  ),
  ['credit', 'card'],
];

const sensitiveKey = fc
  .record({
    words: fc.constantFrom(...SENSITIVE_WORDS),
    style: fc.constantFrom('snake', 'kebab', 'camel', 'pascal', 'screaming', 'scrambled'),
    noise: fc.array(fc.tuple(fc.boolean(), fc.constantFrom('', '', '-', '_', '--', '_-')), { minLength: 40, maxLength: 40 }),
  })
  .map(({ words, style, noise }) => {
    const title = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
    switch (style) {
      case 'snake':
        return words.join('_');
      case 'kebab':
        return words.join('-');
      case 'camel':
        return words.map((word, index) => (index === 0 ? word : title(word))).join('');
      case 'pascal':
        return words.map(title).join('');
      case 'screaming':
        return words.join('_').toUpperCase();
      default:
        // Any casing per letter, with any run of '-' and '_' between letters: all normalize away.
        return [...words.join('')]
          .map((letter, index) => {
            const [upper, separator] = noise[index] ?? [false, ''];
            return (upper ? letter.toUpperCase() : letter) + separator;
          })
          .join('');
    }
  });

const argsTree = fc
  .letrec((tie) => ({
    tree: fc.dictionary(
      fc.oneof({ arbitrary: publicKey, weight: 3 }, { arbitrary: sensitiveKey, weight: 2 }),
      fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: publicText, weight: 3 },
        { arbitrary: tie('tree'), weight: 2 },
        { arbitrary: fc.array(fc.oneof(publicText, tie('tree')), { maxLength: 3 }), weight: 1 },
      ),
      { minKeys: 1, maxKeys: 5 },
    ),
  }))
  .tree.map((tree) => settleSecrets(tree, false) as Record<string, unknown>);

/**
 * Every value under a sensitive key becomes secret material (generated public text there would be
 * a secret by the rules, so it is re-drawn from the secret alphabet): the expected outcome stays
 * exact — public text appears, secret text never does.
 */
function settleSecrets(value: unknown, secret: boolean): unknown {
  if (typeof value === 'string')
    return secret ? [...value].map((letter) => SECRET_LETTERS[PUBLIC_LETTERS.indexOf(letter)] ?? letter).join('') : value;
  if (Array.isArray(value)) return value.map((item) => settleSecrets(item, secret));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = settleSecrets(inner, secret || isSensitive(key));
    return out;
  }
  return value;
}

function isSensitive(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[-_]/g, '');
  return SENSITIVE_WORDS.some((words) => words.join('') === normalized);
}

/** Public strings that should still reach the logs (not under a sensitive key). */
function publicValues(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) publicValues(item, into);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) if (!isSensitive(key)) publicValues(inner, into);
  }
  return into;
}

/** The same arguments plus a secret nested under the schema's write-only and x-milpa-secret fields. */
const schemaSecrets = fc.record({ pin: secretText, recovery: secretText });

type Scenario =
  | 'executed'
  | 'handler_error'
  | 'handler_string'
  | 'validation'
  | 'auth_denied'
  | 'rate_limited'
  | 'confirmation'
  | 'invalid_token'
  | 'plan'
  | 'store_failure';
const SCENARIOS: readonly Scenario[] = [
  'executed',
  'handler_error',
  'handler_string',
  'validation',
  'auth_denied',
  'rate_limited',
  'confirmation',
  'invalid_token',
  'plan',
  'store_failure',
];

const secretFields = {
  profile: Type.Optional(Type.Object({ pin: Type.Optional(Type.String({ writeOnly: true })) }, { additionalProperties: true })),
  recovery: Type.Optional(Type.String({ 'x-milpa-secret': true })),
};
const secretSchema = Type.Object(secretFields, { additionalProperties: true });
// Fails on every generated tree: `only` is missing, and the other keys are unknown.
const strictSchema = Type.Object({ only: Type.String(), ...secretFields }, { additionalProperties: false });

function quote(args: ToolArgs): string {
  return `could not process ${JSON.stringify(args)}`;
}

function redactionRegistry(sink: RecordingLogger, storeFails: boolean): ToolRegistry {
  const denyLimited: RateLimiter = {
    consume: (key) =>
      key.endsWith(':limited') ? RateLimitResult.denied(`Rate limit exceeded for '${key}'`, 30) : RateLimitResult.allowed(99),
    getUsage: () => 0,
    reset: () => undefined,
  };
  const failingStore: ConfirmationStore = {
    create: (_tool, args) => {
      throw new Error(`store is down, lost ${JSON.stringify(args)}`);
    },
    consume: () => null,
    isValid: () => false,
  };
  const registry = new ToolRegistry({
    defaultContext: () => ToolContext.cli(),
    logger: sink,
    dispatcher: new EventDispatcher({ logger: quietLogger }),
    rateLimiter: denyLimited,
    confirmationStore: storeFails ? failingStore : new ConfirmationTokenStore(),
    sensitiveFields: ['credit_card'],
  });
  const tool = (name: string, extra: Partial<Parameters<typeof defineTool>[0]> = {}): void => {
    registry.register(
      defineTool({ name, description: name, input: secretSchema, handler: () => 'ok', ...extra } as Parameters<typeof defineTool>[0]),
    );
  };
  tool('executed');
  tool('handler_error', {
    handler: (args: ToolArgs) => {
      throw new Error(quote(args));
    },
  });
  tool('handler_string', {
    handler: (args: ToolArgs) => {
      // A non-Error throw on purpose.
      throw quote(args);
    },
  });
  registry.register(defineTool({ name: 'validation', description: 'strict', input: strictSchema, handler: () => 'ok' }));
  tool('auth_denied', { scopes: ['admin'] });
  tool('limited');
  tool('confirmation', { requiresConfirmation: true });
  return registry;
}

// Built once (schemas compile once); the logger is emptied before every run.
const logger = new RecordingLogger();
const registries = { working: redactionRegistry(logger, false), failingStore: redactionRegistry(logger, true) };

async function runScenario(scenario: Scenario, args: Record<string, unknown>): Promise<ToolResult> {
  const context = ToolContext.web('user:ω', ['read']);
  const registry = scenario === 'store_failure' ? registries.failingStore : registries.working;
  switch (scenario) {
    case 'rate_limited':
      return registry.call('limited', args, context);
    case 'store_failure':
      return registry.call('confirmation', args, context);
    case 'invalid_token':
      return registry.call('confirmation', { ...args }, context, { confirmToken: 'ЖЖЖЖ-not-a-token' });
    case 'plan':
      return registry.call('executed', args, context.asPlan());
    default:
      return registry.call(scenario, args, context);
  }
}

describe('ToolRegistry', () => {
  describe('call (property: redaction)', () => {
    it('keeps every secret out of logs, audit records and runtime-written messages while public values still appear', async () => {
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(argsTree, schemaSecrets, fc.constantFrom(...SCENARIOS), async (tree, schemaMarked, scenario) => {
          const args = { ...tree, profile: { pin: schemaMarked.pin }, recovery: schemaMarked.recovery };
          logger.lines.length = 0;
          const result = await runScenario(scenario, args);
          seen.add(`${scenario}:${String(result.meta['code'] ?? 'ok')}`);

          const logged = logger.dump();
          expect(logged, `${scenario}: a secret reached the logs`).not.toMatch(LEAK);
          expect(JSON.stringify(logger.auditRecords()), `${scenario}: a secret reached an audit record`).not.toMatch(LEAK);
          // A plan returns the caller's own arguments on purpose; everything else in a result is written by the runtime.
          const written = scenario === 'plan' ? { ...result.toJSON(), data: null } : result.toJSON();
          expect(JSON.stringify(written), `${scenario}: a secret reached the result`).not.toMatch(LEAK);

          expect(logger.auditRecords().length, `${scenario}: nothing was audited`).toBeGreaterThan(0);
          for (const value of publicValues(tree)) expect(logged, `${scenario}: public value ${value} vanished`).toContain(value);
          if (scenario === 'handler_error' || scenario === 'handler_string') {
            for (const value of publicValues(tree)) expect(result.error).toContain(value);
          }
        }),
        { numRuns: 1_000 },
      );
      // Every scenario must have reached its intended outcome at least once.
      for (const expected of [
        'executed:ok',
        'handler_error:INTERNAL_ERROR',
        'handler_string:INTERNAL_ERROR',
        'validation:VALIDATION_ERROR',
        'auth_denied:FORBIDDEN',
        'rate_limited:RATE_LIMITED',
        'confirmation:ok',
        'invalid_token:VALIDATION_ERROR',
        'plan:ok',
        'store_failure:STORE_UNAVAILABLE',
      ]) {
        expect(seen).toContain(expected);
      }
    }, 60_000);

    it('spells every sensitive name in each generated style so that it normalizes to the name', () => {
      fc.assert(
        fc.property(sensitiveKey, (key) => {
          expect(isSensitive(key), key).toBe(true);
        }),
        { numRuns: 500 },
      );
      fc.assert(
        fc.property(publicKey, (key) => {
          expect(isSensitive(key), key).toBe(false);
        }),
      );
    });
  });
});
