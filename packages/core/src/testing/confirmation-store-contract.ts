import type { ConfirmationBinding, ConfirmationStore } from '../contracts/confirmation-store.js';
import { buildCases, check, checkSame, type CaseDefinition } from './contract-checks.js';
import type { StoreContractCase, StoreContractSubject } from './store-contract-case.js';

/** What a case of {@link confirmationStoreContract} asks of a fresh store. */
export interface ConfirmationStoreContractSettings {
  /** Seconds a token stays redeemable (whole seconds, at least 1). */
  readonly ttlSeconds: number;
}

type Definition = CaseDefinition<ConfirmationStore, ConfirmationStoreContractSettings>;

const ALICE: ConfirmationBinding = Object.freeze({ principal: 'user:alice', channel: 'web' });
const BOB: ConfirmationBinding = Object.freeze({ principal: 'user:bob', channel: 'web' });
const ALICE_ON_CLI: ConfirmationBinding = Object.freeze({ principal: 'user:alice', channel: 'cli' });
const ANONYMOUS: ConfirmationBinding = Object.freeze({ principal: null, channel: 'web' });
const LONG = Object.freeze({ ttlSeconds: 60 });
const RACERS = 25;

function definitions(): Definition[] {
  return [
    {
      name: 'create mints a 32-character lowercase hex token carrying its summary and a valid expiry',
      settings: LONG,
      async body(store) {
        const minted = await store.create('delete_note', { id: 42 }, 'delete_note(id=42)', ALICE);
        check(
          typeof minted.token === 'string' && /^[0-9a-f]{32}$/.test(minted.token),
          'the token should be 32 lowercase hex characters',
          minted.token,
        );
        checkSame(minted.actionSummary, 'delete_note(id=42)', 'the action summary');
        check(
          minted.expiresAt instanceof Date && !Number.isNaN(minted.expiresAt.getTime()),
          'expiresAt should be a valid Date',
          minted.expiresAt,
        );
      },
    },
    {
      name: 'create mints a distinct token on every call, even for identical requests',
      settings: LONG,
      async body(store) {
        const tokens = new Set<string>();
        for (let index = 0; index < 20; index += 1)
          tokens.add((await store.create('delete_note', { id: 1 }, 'delete_note(id=1)', ALICE)).token);
        checkSame(tokens.size, 20, 'the number of distinct tokens out of 20 creates');
      },
    },
    {
      name: 'consume returns the stored arguments once and null on every later attempt',
      settings: LONG,
      async body(store) {
        const args = { id: 42, tags: ['a', 'b'], nested: { dry: false, note: null } };
        const { token } = await store.create('delete_note', args, 'delete_note(id=42)', ALICE);
        checkSame(await store.consume(token, 'delete_note', ALICE), args, 'the first consume');
        checkSame(await store.consume(token, 'delete_note', ALICE), null, 'a second consume of a used token');
        checkSame(await store.isValid(token, 'delete_note', ALICE), false, 'isValid of a used token');
      },
    },
    {
      name: 'consume returns the arguments as they were at create, whatever the caller changed since',
      settings: LONG,
      async body(store) {
        const args = { id: 42, nested: { mode: 'soft' } };
        const { token } = await store.create('delete_note', args, 'delete_note(id=42)', ALICE);
        args.id = 7;
        args.nested.mode = 'hard';
        checkSame(await store.consume(token, 'delete_note', ALICE), { id: 42, nested: { mode: 'soft' } }, 'the redeemed arguments');
      },
    },
    {
      name: `consume redeems a token exactly once when ${String(RACERS)} callers race for it`,
      settings: LONG,
      async body(store) {
        const { token } = await store.create('delete_note', { id: 42 }, 'delete_note(id=42)', ALICE);
        const results = await Promise.all(Array.from({ length: RACERS }, async () => store.consume(token, 'delete_note', ALICE)));
        const winners = results.filter((result) => result !== null);
        checkSame(winners.length, 1, `the number of consumes out of ${String(RACERS)} concurrent ones that got the arguments`);
        checkSame(winners[0], { id: 42 }, 'the winning consume');
      },
    },
    {
      name: 'isValid answers true repeatedly without consuming the token',
      settings: LONG,
      async body(store) {
        const { token } = await store.create('delete_note', { id: 42 }, 'delete_note(id=42)', ALICE);
        for (let index = 0; index < 3; index += 1)
          checkSame(await store.isValid(token, 'delete_note', ALICE), true, 'isValid of a fresh token');
        checkSame(await store.consume(token, 'delete_note', ALICE), { id: 42 }, 'consume after isValid');
      },
    },
    {
      name: 'a token presented for another tool is refused and stays redeemable for its own tool',
      settings: LONG,
      async body(store) {
        const { token } = await store.create('delete_note', { id: 42 }, 'delete_note(id=42)', ALICE);
        checkSame(await store.isValid(token, 'archive_note', ALICE), false, 'isValid for another tool');
        checkSame(await store.consume(token, 'archive_note', ALICE), null, 'consume for another tool');
        checkSame(await store.consume(token, 'delete_note', ALICE), { id: 42 }, 'consume for its own tool afterwards');
      },
    },
    {
      name: 'a token presented by another principal is refused and stays redeemable by the one that asked',
      settings: LONG,
      async body(store) {
        const { token } = await store.create('delete_note', { id: 42 }, 'delete_note(id=42)', ALICE);
        checkSame(await store.isValid(token, 'delete_note', BOB), false, 'isValid for another principal');
        checkSame(await store.consume(token, 'delete_note', BOB), null, 'consume by another principal');
        checkSame(await store.consume(token, 'delete_note', ALICE), { id: 42 }, 'consume by the principal that asked');
      },
    },
    {
      name: 'a token presented on another channel by the same principal is refused and stays redeemable',
      settings: LONG,
      async body(store) {
        const { token } = await store.create('delete_note', { id: 42 }, 'delete_note(id=42)', ALICE);
        checkSame(await store.consume(token, 'delete_note', ALICE_ON_CLI), null, 'consume on another channel');
        checkSame(await store.consume(token, 'delete_note', ALICE), { id: 42 }, 'consume on the channel that asked');
      },
    },
    {
      name: "an anonymous token redeems only anonymously, and a principal's token never anonymously",
      settings: LONG,
      async body(store) {
        const anonymous = await store.create('delete_note', { id: 1 }, 'delete_note(id=1)', ANONYMOUS);
        const named = await store.create('delete_note', { id: 2 }, 'delete_note(id=2)', ALICE);
        checkSame(await store.consume(anonymous.token, 'delete_note', ALICE), null, 'an anonymous token consumed by a principal');
        checkSame(await store.consume(named.token, 'delete_note', ANONYMOUS), null, "a principal's token consumed anonymously");
        checkSame(await store.consume(anonymous.token, 'delete_note', ANONYMOUS), { id: 1 }, 'the anonymous token consumed anonymously');
        checkSame(await store.consume(named.token, 'delete_note', ALICE), { id: 2 }, "the principal's token consumed by that principal");
      },
    },
    {
      name: 'an unknown token is neither valid nor redeemable',
      settings: LONG,
      async body(store) {
        await store.create('delete_note', { id: 42 }, 'delete_note(id=42)', ALICE);
        const unknown = '0123456789abcdef0123456789abcdef';
        checkSame(await store.isValid(unknown, 'delete_note', ALICE), false, 'isValid of an unknown token');
        checkSame(await store.consume(unknown, 'delete_note', ALICE), null, 'consume of an unknown token');
        checkSame(await store.consume('', 'delete_note', ALICE), null, 'consume of an empty token');
      },
    },
    {
      name: 'tokens are independent: redeeming one leaves the others redeemable',
      settings: LONG,
      async body(store) {
        const first = await store.create('delete_note', { id: 1 }, 'delete_note(id=1)', ALICE);
        const second = await store.create('delete_note', { id: 2 }, 'delete_note(id=2)', ALICE);
        checkSame(await store.consume(second.token, 'delete_note', ALICE), { id: 2 }, 'consume of the second token');
        checkSame(await store.consume(first.token, 'delete_note', ALICE), { id: 1 }, 'consume of the first token');
      },
    },
    {
      name: 'a token is neither valid nor redeemable once its lifetime has passed',
      settings: Object.freeze({ ttlSeconds: 1 }),
      async body(store, { advanceTime }) {
        const { token, expiresAt } = await store.create('delete_note', { id: 42 }, 'delete_note(id=42)', ALICE);
        // Expiry may be counted in whole seconds, so a 1 s token can live up to 2 s: wait well past that.
        await advanceTime(3_500);
        checkSame(
          await store.isValid(token, 'delete_note', ALICE),
          false,
          `isValid 3.5 s after create of a token expiring at ${expiresAt.toISOString()}`,
        );
        checkSame(await store.consume(token, 'delete_note', ALICE), null, 'consume of an expired token');
      },
    },
    {
      name: 'a token created after another expired is redeemable',
      settings: Object.freeze({ ttlSeconds: 1 }),
      async body(store, { advanceTime }) {
        await store.create('delete_note', { id: 1 }, 'delete_note(id=1)', ALICE);
        await advanceTime(3_500);
        const { token } = await store.create('delete_note', { id: 2 }, 'delete_note(id=2)', ALICE);
        checkSame(await store.consume(token, 'delete_note', ALICE), { id: 2 }, 'consume of the fresh token');
      },
    },
  ];
}

/**
 * The contract test suite of {@link ConfirmationStore}: one-use redemption (also when many callers
 * race), the first call's arguments, binding to tool, principal and channel, and expiry. Returns
 * the cases for any test runner to run; each builds its own store through `subject`.
 *
 * The expiry cases create stores with a 1 s lifetime and let 3.5 s pass through
 * `harness.advanceTime`, or in real time when the harness has none.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { confirmationStoreContract } from '@milpa/core/testing';
 *
 * describe('MyConfirmationStore', () => {
 *   for (const contractCase of confirmationStoreContract(({ ttlSeconds }) => new MyConfirmationStore({ ttlSeconds }))) {
 *     it(contractCase.name, contractCase.run);
 *   }
 * });
 */
export function confirmationStoreContract(
  subject: StoreContractSubject<ConfirmationStore, ConfirmationStoreContractSettings>,
): readonly StoreContractCase[] {
  return buildCases('confirmationStoreContract', subject, definitions());
}
