import { ToolContext } from '@milpa/core';
import fc from 'fast-check';

/** Keys that would reach `Object.prototype` (or a constructor) if some code assigned them naively. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Builds `{ [key]: { [key]: … } }` `depth` levels deep, iteratively (a recursive builder would overflow first). */
export function deeplyNested(depth: number, key = 'next', leaf: unknown = 'bottom'): Record<string, unknown> {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level += 1) value = { [key]: value };
  return value as Record<string, unknown>;
}

/** An object that contains itself, directly and through an array. */
export function cyclic(): Record<string, unknown> {
  const root: Record<string, unknown> = { name: 'loop', items: [] };
  root['self'] = root;
  (root['items'] as unknown[]).push(root, { parent: root });
  return root;
}

/** One object reused under two keys at every level: `levels + 1` objects, 2^levels paths. */
export function sharedDiamonds(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 'end' };
  for (let level = 0; level < levels; level += 1) value = { left: value, right: value };
  return value;
}

/** A record whose own keys include the prototype-polluting names, built so they stay own data fields. */
export function withPrototypeKeys(payload: unknown): Record<string, unknown> {
  const parsed = JSON.parse(
    '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}',
  ) as Record<string, unknown>;
  parsed['payload'] = payload;
  return parsed;
}

/** Any JSON-ish or JavaScript value, with keys biased towards prototype names and sensitive names. */
export const anyValue: fc.Arbitrary<unknown> = fc.anything({
  key: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...PROTOTYPE_KEYS, 'confirm_token', 'password', '_ctx', 'toString', 'then')),
  maxDepth: 4,
  maxKeys: 5,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

/** Arguments a hostile or buggy caller might pass to `call()`. */
export const hostileArgs: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: anyValue, weight: 6 },
  { arbitrary: fc.dictionary(fc.constantFrom(...PROTOTYPE_KEYS, 'a', 'b', 'confirm_token'), anyValue, { maxKeys: 4 }), weight: 3 },
  { arbitrary: anyValue.map(withPrototypeKeys), weight: 2 },
  { arbitrary: fc.constant(null).map(() => cyclic()), weight: 2 },
  { arbitrary: fc.integer({ min: 1, max: 4 }).map((n) => ({ text: 'x'.repeat(n * 250_000) })), weight: 1 },
  { arbitrary: fc.constantFrom(2_000, 20_000).map((depth) => deeplyNested(depth)), weight: 1 },
  { arbitrary: fc.integer({ min: 10, max: 40 }).map(sharedDiamonds), weight: 1 },
  { arbitrary: fc.constantFrom(undefined, null, 0, -0, Number.NaN, '', 'args', true, [], [1, 2], Symbol('s'), () => 1), weight: 2 },
);

/** Tool names: the registered ones, near misses, prototype names, and values that are not strings at all. */
export function hostileToolName(registered: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...registered), weight: 6 },
    { arbitrary: fc.string({ maxLength: 20 }), weight: 2 },
    { arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '', ' ', 'echo ', 'ECHO'), weight: 2 },
    {
      arbitrary: fc.constantFrom<unknown>(undefined, null, 42, Symbol('tool'), ['echo'], { toString: () => 'echo' }, Object.create(null), {
        toString() {
          throw new Error('name toString exploded');
        },
      }),
      weight: 1,
    },
  );
}

const channel = fc.oneof(
  fc.constantFrom('cli', 'mcp', 'web', 'telegram', 'unknown', '__proto__', 'constructor', 'toString', 'web:admin', 'CLI'),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const principal = fc.oneof(
  fc.constant(null),
  fc.constantFrom('', 'cli', 'user:42', 'alice:admin', '0', '__proto__', 'a\nforged line'),
  fc.string({ maxLength: 12 }),
);
const scopes = fc.oneof(
  fc.constant([] as string[]),
  fc.constant(['*']),
  fc.array(fc.oneof(fc.constantFrom('*', 'read', 'write', 'admin', '', ' *', '__proto__'), fc.string({ maxLength: 6 })), { maxLength: 4 }),
);

/** A value that is a ToolContext by prototype but was never constructed (no validation ran). */
const forgedContext = fc
  .record(
    {
      channel,
      principal: fc.constantFrom<unknown>(undefined, 42, null, 'user:42'),
      scopes: fc.constantFrom<unknown>(undefined, ['*'], 'admin'),
    },
    { requiredKeys: [] },
  )
  .map((fields) => {
    const descriptors: PropertyDescriptorMap = {};
    for (const [key, value] of Object.entries(fields)) descriptors[key] = { value, enumerable: true };
    return Object.create(ToolContext.prototype, descriptors) as unknown;
  });

/** Contexts from every channel, with missing principals, odd scopes and plan mode, plus malformed plain objects and forged instances. */
export const hostileContext: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 1 },
  { arbitrary: fc.constantFrom(0, 1).map((n) => (n === 0 ? ToolContext.cli() : ToolContext.cli().asPlan())), weight: 1 },
  {
    arbitrary: fc
      .record({ channel, principal, scopes, mode: fc.constantFrom<'execute' | 'plan'>('execute', 'plan') })
      .map((init) => new ToolContext(init)),
    weight: 6,
  },
  {
    arbitrary: fc.record(
      {
        channel: fc.oneof(channel, fc.constantFrom<unknown>(42, '', null)),
        principal: fc.oneof(principal, fc.constantFrom<unknown>(7, {})),
        scopes: fc.oneof(scopes, fc.constantFrom<unknown>('*', [1], null)),
        mode: fc.constantFrom<unknown>('execute', 'plan', 'PLAN', null, 'dry-run'),
      },
      { requiredKeys: [] },
    ),
    weight: 2,
  },
  { arbitrary: forgedContext, weight: 1 },
);
