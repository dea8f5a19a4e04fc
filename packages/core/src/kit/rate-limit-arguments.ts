import { MilpaError } from '../errors/milpa-error.js';

function requireNumber(name: string, value: unknown, rule: 'non-negative' | 'positive' | 'non-negative integer'): void {
  const finite = typeof value === 'number' && Number.isFinite(value);
  const valid = finite && (rule === 'positive' ? value > 0 : value >= 0) && (rule !== 'non-negative integer' || Number.isInteger(value));
  if (!valid) {
    const kind = rule === 'non-negative integer' ? 'a non-negative integer' : `a ${rule} finite number`;
    throw new MilpaError(`Rate limit ${name} must be ${kind}, got ${String(value)}.`, { code: 'INVALID_ARGUMENT' });
  }
}

/**
 * Checks the arguments of `RateLimiter.consume` as every durable limiter does, before it touches
 * its store: a string key, a non-negative finite cost, a positive finite window and a non-negative
 * whole maximum.
 *
 * @throws MilpaError `INVALID_ARGUMENT` naming the first bad argument and its value.
 * @example
 * checkRateLimitArguments(key, cost, windowSeconds, maxTokens);
 */
export function checkRateLimitArguments(key: unknown, cost: unknown, windowSeconds: unknown, maxTokens: unknown): void {
  if (typeof key !== 'string') throw new MilpaError('Rate limit key must be a string.', { code: 'INVALID_ARGUMENT' });
  requireNumber('cost', cost, 'non-negative');
  requireNumber('windowSeconds', windowSeconds, 'positive');
  requireNumber('maxTokens', maxTokens, 'non-negative integer');
}
