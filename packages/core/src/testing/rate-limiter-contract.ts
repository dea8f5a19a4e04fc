import type { RateLimiter, RateLimitResult } from '../contracts/rate-limiter.js';
import { buildCases, check, checkSame, type CaseDefinition } from './contract-checks.js';
import type { StoreContractCase, StoreContractSubject } from './store-contract-case.js';

type Definition = CaseDefinition<RateLimiter, void>;

const WINDOW_SECONDS = 60;
const RACERS = 40;

function checkAllowed(result: RateLimitResult, remaining: number, what: string): void {
  check(result.allowed === true, `${what} should be allowed`, result);
  checkSame(result.remainingTokens, remaining, `the remaining tokens after ${what}`);
}

function checkDenied(result: RateLimitResult, windowSeconds: number, what: string): void {
  check(result.allowed === false, `${what} should be denied`, result);
  check(typeof result.reason === 'string' && result.reason.length > 0, `a denial should say why (${what})`, result.reason);
  check(
    typeof result.retryAfterSeconds === 'number' && result.retryAfterSeconds >= 1 && result.retryAfterSeconds <= Math.ceil(windowSeconds),
    `a denial should carry a retry-after between 1 and ${String(Math.ceil(windowSeconds))} seconds (${what})`,
    result.retryAfterSeconds,
  );
  checkSame(result.remainingTokens, null, `the remaining tokens of a denial (${what})`);
}

function definitions(): Definition[] {
  return [
    {
      name: 'consume grants a first cost and reports the tokens left and the usage',
      settings: undefined,
      async body(limiter) {
        checkAllowed(await limiter.consume('web:alice:search', 3, WINDOW_SECONDS, 10), 7, 'a first consume of 3 out of 10');
        checkSame(await limiter.getUsage('web:alice:search'), 3, 'the usage after spending 3');
      },
    },
    {
      name: 'consume grants the budget exactly and denies the next cost without deducting it',
      settings: undefined,
      async body(limiter) {
        const key = 'web:alice:delete_note';
        checkAllowed(await limiter.consume(key, 5, WINDOW_SECONDS, 10), 5, 'the first consume of 5');
        checkAllowed(await limiter.consume(key, 5, WINDOW_SECONDS, 10), 0, 'the second consume of 5');
        checkDenied(await limiter.consume(key, 5, WINDOW_SECONDS, 10), WINDOW_SECONDS, 'a third consume of 5 out of 10');
        checkDenied(await limiter.consume(key, 1, WINDOW_SECONDS, 10), WINDOW_SECONDS, 'a consume of 1 on a spent budget');
        checkSame(await limiter.getUsage(key), 10, 'the usage after denials');
      },
    },
    {
      name: 'a denied cost is not deducted, so a smaller one still fits',
      settings: undefined,
      async body(limiter) {
        const key = 'web:alice:search';
        checkAllowed(await limiter.consume(key, 7, WINDOW_SECONDS, 10), 3, 'a consume of 7 out of 10');
        checkDenied(await limiter.consume(key, 5, WINDOW_SECONDS, 10), WINDOW_SECONDS, 'a consume of 5 with 3 left');
        checkAllowed(await limiter.consume(key, 3, WINDOW_SECONDS, 10), 0, 'a consume of 3 with 3 left');
      },
    },
    {
      name: 'consume denies a cost larger than the whole budget on an unused key',
      settings: undefined,
      async body(limiter) {
        checkDenied(await limiter.consume('web:alice:bulk', 11, WINDOW_SECONDS, 10), WINDOW_SECONDS, 'a consume of 11 out of 10');
        checkSame(await limiter.getUsage('web:alice:bulk'), 0, 'the usage after the denial');
      },
    },
    {
      name: 'keys are independent, also when one is a prefix of another or holds pattern characters',
      settings: undefined,
      async body(limiter) {
        const keys = ['web:alice:search', 'web:alice:search:x', 'web:alice', 'web:%:search', 'web:_lice:search', 'web:ålice:search'];
        checkAllowed(await limiter.consume(keys[0] as string, 10, WINDOW_SECONDS, 10), 0, 'spending the whole budget of the first key');
        for (const key of keys.slice(1)) {
          checkSame(await limiter.getUsage(key), 0, `the usage of '${key}'`);
          checkAllowed(await limiter.consume(key, 4, WINDOW_SECONDS, 10), 6, `a consume of 4 on '${key}'`);
        }
        checkSame(await limiter.getUsage(keys[0] as string), 10, 'the usage of the first key');
      },
    },
    {
      name: 'getUsage answers 0 for a key never consumed',
      settings: undefined,
      async body(limiter) {
        checkSame(await limiter.getUsage('web:nobody:search'), 0, 'the usage of an unknown key');
      },
    },
    {
      name: "reset forgets a key's usage and gives back its whole budget",
      settings: undefined,
      async body(limiter) {
        const key = 'web:alice:search';
        await limiter.consume(key, 10, WINDOW_SECONDS, 10);
        await limiter.consume('web:bob:search', 4, WINDOW_SECONDS, 10);
        await limiter.reset(key);
        checkSame(await limiter.getUsage(key), 0, 'the usage after reset');
        checkAllowed(await limiter.consume(key, 10, WINDOW_SECONDS, 10), 0, 'a consume of the whole budget after reset');
        checkSame(await limiter.getUsage('web:bob:search'), 4, 'the usage of another key after reset');
      },
    },
    {
      name: 'a spent budget is granted again once its window has passed, and the old usage is gone',
      settings: undefined,
      async body(limiter, { advanceTime }) {
        const key = 'web:alice:search';
        checkAllowed(await limiter.consume(key, 10, 1, 10), 0, 'spending a 1 s window');
        checkDenied(await limiter.consume(key, 1, 1, 10), 1, 'a consume in the spent window');
        await advanceTime(2_500);
        checkSame(await limiter.getUsage(key), 0, 'the usage once the window has passed');
        checkAllowed(await limiter.consume(key, 4, 1, 10), 6, 'a consume in the next window');
        checkSame(await limiter.getUsage(key), 4, 'the usage in the next window');
      },
    },
    {
      name: `consume never grants more than the budget when ${String(RACERS)} callers race on one key`,
      settings: undefined,
      async body(limiter) {
        const key = 'web:alice:search';
        const results = await Promise.all(Array.from({ length: RACERS }, async () => limiter.consume(key, 1, WINDOW_SECONDS, 15)));
        checkSame(
          results.filter((result) => result.allowed).length,
          15,
          `the number of grants out of ${String(RACERS)} concurrent consumes of 1 on a budget of 15`,
        );
        checkSame(await limiter.getUsage(key), 15, 'the usage after the race');
      },
    },
  ];
}

/**
 * The contract test suite of {@link RateLimiter}: grants up to the budget, denials that deduct
 * nothing and say when to retry, independent keys, reset, a fresh window once the window has passed,
 * and no budget exceeded when callers race. Returns the cases for any test runner to run; each
 * builds its own limiter through `subject`.
 *
 * The window case uses a 1 s window and lets 2.5 s pass through `harness.advanceTime`, or in real
 * time when the harness has none.
 *
 * @example
 * import { describe, it } from 'vitest';
 * import { rateLimiterContract } from '@milpa/core/testing';
 *
 * describe('MyRateLimiter', () => {
 *   for (const contractCase of rateLimiterContract(() => new MyRateLimiter())) it(contractCase.name, contractCase.run);
 * });
 */
export function rateLimiterContract(subject: StoreContractSubject<RateLimiter>): readonly StoreContractCase[] {
  return buildCases('rateLimiterContract', subject, definitions());
}
