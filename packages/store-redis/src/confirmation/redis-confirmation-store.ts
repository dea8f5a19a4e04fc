import {
  MilpaError,
  generateRandomId,
  type ConfirmationBinding,
  type ConfirmationStore,
  type ConfirmationToken,
  type ToolArgs,
} from '@milpa/core';
import { fromJsonText, toJsonText } from '../connection/json-text.js';
import { RedisScript } from '../connection/redis-script.js';
import { malformedData, type StoreConnection } from '../connection/store-connection.js';

/** Stores a new token's hash unless the key exists; kept `ARGV[7]` ms. Answers 1, or 0 for a taken token. */
const CREATE = new RedisScript(
  'confirmation create',
  `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'tool', ARGV[1], 'principal', ARGV[2], 'channel', ` +
    `ARGV[3], 'expires_at', ARGV[4], 'args', ARGV[5], 'summary', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return 1
`,
);

/**
 * Judges a token for a caller (`ARGV[2]` tool, `ARGV[3]` principal as JSON, `ARGV[4]` channel) at
 * `ARGV[5]`; in mode `consume` (`ARGV[1]`) it deletes a redeemed or expired token in the same step.
 * Answers `{'valid', args}`, `{'unknown'}`, `{'expired'}`, `{'refused'}` or `{'malformed', what}`.
 */
const JUDGE = new RedisScript(
  'confirmation judge',
  `
if redis.call('EXISTS', KEYS[1]) == 0 then return {'unknown'} end
local row = redis.call('HMGET', KEYS[1], 'tool', 'principal', 'channel', 'expires_at', 'args')
local expires = tonumber(row[4])
if row[1] == false or row[2] == false or row[3] == false or expires == nil or row[5] == false then
  return {'malformed', 'a confirmation token with missing or mistyped fields'}
end
if tonumber(ARGV[5]) > expires then
  if ARGV[1] == 'consume' then redis.call('DEL', KEYS[1]) end
  return {'expired'}
end
if row[1] ~= ARGV[2] or row[2] ~= ARGV[3] or row[3] ~= ARGV[4] then return {'refused'} end
local parsed, args = pcall(cjson.decode, row[5])
if not parsed or type(args) ~= 'table' or string.sub(row[5], 1, 1) ~= '{' then
  return {'malformed', 'a confirmation token whose arguments are not a JSON object'}
end
if ARGV[1] == 'consume' then redis.call('DEL', KEYS[1]) end
return {'valid', row[5]}
`,
);

function invalid(message: string): MilpaError {
  return new MilpaError(message, { code: 'INVALID_ARGUMENT' });
}

function isBinding(binding: unknown): binding is ConfirmationBinding {
  const { principal, channel } = (typeof binding === 'object' && binding !== null ? binding : {}) as Partial<ConfirmationBinding>;
  return typeof channel === 'string' && (typeof principal === 'string' || principal === null);
}

/**
 * The {@link ConfirmationStore} over Redis: a token minted by one process is redeemable, exactly
 * once, by any process that shares the Redis server, for the tool, principal and channel that
 * asked, until it expires.
 *
 * - A token is 32 lowercase hex characters (128 random bits) and stays redeemable through its
 *   `expiresAt` (creation plus the TTL, to the millisecond). Its hash, `<prefix>confirmation:<token>`,
 *   carries the same TTL on the server (`PEXPIRE`), so Redis forgets it by itself.
 * - The arguments are stored as JSON: they must be plain JSON data, and the first call's arguments
 *   are the ones redeemed.
 * - `consume` checks and deletes the token in one Lua script, so however many callers race, in one
 *   process or many, exactly one gets the arguments. A token presented for another tool or by
 *   another caller is refused and stays redeemable by its rightful caller.
 *
 * Get one from {@link RedisStores.connect}.
 *
 * @example
 * const stores = await RedisStores.connect({ url: 'redis://127.0.0.1:6379' });
 * const registry = new ToolRegistry({ confirmationStore: stores.confirmation });
 */
export class RedisConfirmationStore implements ConfirmationStore {
  readonly #connection: StoreConnection;
  readonly #ttlMs: number;

  /** @internal Use {@link RedisStores.connect}. */
  constructor(connection: StoreConnection, ttlSeconds: number) {
    this.#connection = connection;
    this.#ttlMs = ttlSeconds * 1000;
  }

  /**
   * Stores `args` for `toolName` on behalf of `binding` and returns a new token.
   *
   * @throws MilpaError `INVALID_ARGUMENT` for an empty tool name, args that are not a plain JSON
   *   object, a non-string summary or a malformed binding; nothing is stored then.
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis cannot store it.
   */
  async create(toolName: string, args: ToolArgs, actionSummary: string, binding: ConfirmationBinding): Promise<ConfirmationToken> {
    if (typeof toolName !== 'string' || toolName === '') throw invalid('Confirmation tool name must be a non-empty string.');
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw invalid('Confirmation args must be an object.');
    if (typeof actionSummary !== 'string') throw invalid('Confirmation action summary must be a string.');
    if (!isBinding(binding)) throw invalid('Confirmation binding needs a string channel and a string or null principal.');
    const argsJson = toJsonText(args, 'Confirmation args');
    const expiresAt = this.#connection.now() + this.#ttlMs;
    const fields = [
      toolName,
      JSON.stringify(binding.principal),
      binding.channel,
      String(expiresAt),
      argsJson,
      actionSummary,
      String(this.#ttlMs),
    ];
    // 128 random bits do not collide in practice; a taken token is drawn again rather than overwritten.
    for (;;) {
      const token = generateRandomId();
      if ((await this.#connection.run('confirmation', CREATE, [this.#connection.key('confirmation', token)], fields)) === 1) {
        return Object.freeze({ token, expiresAt: new Date(expiresAt), actionSummary });
      }
    }
  }

  /**
   * Redeems `token`: returns the stored arguments (deeply frozen) and deletes the token, or null
   * when the token is not a string, unknown, used, expired (then deleted), or for another tool or
   * caller (then kept).
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the token's data is malformed.
   */
  async consume(token: string, toolName: string, binding: ConfirmationBinding): Promise<ToolArgs | null> {
    return this.#judge('consume', token, toolName, binding);
  }

  /**
   * True when `consume` would succeed now; consumes nothing.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the token's data is malformed.
   */
  async isValid(token: string, toolName: string, binding: ConfirmationBinding): Promise<boolean> {
    return (await this.#judge('peek', token, toolName, binding)) !== null;
  }

  async #judge(mode: 'consume' | 'peek', token: string, toolName: string, binding: ConfirmationBinding): Promise<ToolArgs | null> {
    if (typeof token !== 'string' || typeof toolName !== 'string' || !isBinding(binding)) return null;
    const key = this.#connection.key('confirmation', token);
    const reply = await this.#connection.run(
      'confirmation',
      JUDGE,
      [key],
      [mode, toolName, JSON.stringify(binding.principal), binding.channel, String(this.#connection.now())],
    );
    const [verdict, detail] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (verdict === 'unknown' || verdict === 'expired' || verdict === 'refused') return null;
    if (verdict === 'malformed') throw malformedData('confirmation', `${key}: ${String(detail)}`);
    const args = fromJsonText(detail);
    if (verdict !== 'valid' || typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw malformedData('confirmation', `${key}: an unexpected answer from the judge script`);
    }
    return args as ToolArgs;
  }
}
