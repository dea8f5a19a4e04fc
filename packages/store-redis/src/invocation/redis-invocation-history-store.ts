import { InvocationHistory, InvocationOutcome, type InvocationHistoryStore, type InvocationObservation } from '@milpa/core';
import { fromJsonText } from '../connection/json-text.js';
import { RedisScript } from '../connection/redis-script.js';
import { malformedData, type StoreConnection } from '../connection/store-connection.js';
import { StoredFields } from '../connection/stored-fields.js';

/**
 * The part every history script starts with. A run is one hash: `complete` ('1' or '0'),
 * `touched` (epoch ms), the observations as `o:<n>` for `first` ≤ n < `next`. `ARGV[1]` is now and
 * `ARGV[2]` the idle TTL in ms; a run untouched that long is unknown (`live` is nil), whether or
 * not Redis has expired its key yet.
 */
const LIVE_RUN = `
local now, idle = tonumber(ARGV[1]), tonumber(ARGV[2])
local live = nil
if redis.call('EXISTS', KEYS[1]) == 1 then
  local row = redis.call('HMGET', KEYS[1], 'complete', 'touched', 'first', 'next')
  local touched, first, next = tonumber(row[2]), tonumber(row[3]), tonumber(row[4])
  if (row[1] ~= '0' and row[1] ~= '1') or touched == nil or first == nil or next == nil or first < 1 or first > next then
    return {'malformed'}
  end
  if now - touched < idle then live = {complete = row[1], first = first, next = next} end
end
local function field(n) return 'o:' .. string.format('%d', n) end
`;

/** Opens a complete, empty run unless it is live; either way the run is touched. */
const START_RUN = new RedisScript(
  'history start run',
  `${LIVE_RUN}
if live then
  redis.call('HSET', KEYS[1], 'touched', ARGV[1])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {'known'}
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'complete', '1', 'touched', ARGV[1], 'first', '1', 'next', '1')
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'started'}
`,
);

/** Answers `{'loaded', complete, observation...}` for a live run (and touches it), `{'unknown'}` otherwise. */
const LOAD = new RedisScript(
  'history load',
  `${LIVE_RUN}
if not live then return {'unknown'} end
redis.call('HSET', KEYS[1], 'touched', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local answer = {'loaded', live.complete}
for n = live.first, live.next - 1 do
  local observation = redis.call('HGET', KEYS[1], field(n))
  if observation == false then return {'malformed'} end
  answer[#answer + 1] = observation
end
return answer
`,
);

/**
 * Appends `ARGV[4]` (an observation as JSON) keeping at most `ARGV[3]` observations: past that the
 * oldest are dropped and the run is marked incomplete. A run that is not live starts over, incomplete.
 */
const APPEND = new RedisScript(
  'history append',
  `${LIVE_RUN}
if not live then
  redis.call('DEL', KEYS[1])
  live = {complete = '0', first = 1, next = 1}
  redis.call('HSET', KEYS[1], 'complete', '0', 'first', '1')
end
local first = live.first
redis.call('HSET', KEYS[1], field(live.next), ARGV[4], 'next', string.format('%d', live.next + 1), 'touched', ARGV[1])
while live.next + 1 - first > tonumber(ARGV[3]) do
  redis.call('HDEL', KEYS[1], field(first))
  first = first + 1
end
if first ~= live.first then redis.call('HSET', KEYS[1], 'first', string.format('%d', first), 'complete', '0') end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {'appended'}
`,
);

/**
 * The {@link InvocationHistoryStore} over Redis: each run's history (tool, outcome and target of
 * every call, never arguments or results) is shared by every process that uses the Redis server,
 * so a run suspended in one process resumes in another with its history complete.
 *
 * A run is one hash, `<prefix>history:<runId>`. Each `startRun`, `load` and `append` is one Lua
 * script, so overlapping appends, across processes too, lose nothing and keep the order they ran
 * in. A run keeps at most `maxObservationsPerRun` observations (past it the oldest are dropped and
 * the run becomes incomplete), and a run untouched for `historyIdleTtlSeconds` is forgotten: its
 * key expires on the server, and it loads as unknown, which rules that need a complete history
 * refuse.
 *
 * Get one from {@link RedisStores.connect}.
 *
 * @example
 * const stores = await RedisStores.connect({ url: 'redis://127.0.0.1:6379' });
 * const registry = new ToolRegistry({ historyStore: stores.history });
 */
export class RedisInvocationHistoryStore implements InvocationHistoryStore {
  readonly #connection: StoreConnection;
  readonly #maxObservations: number;
  readonly #idleMs: number;

  /** @internal Use {@link RedisStores.connect}. */
  constructor(connection: StoreConnection, maxObservationsPerRun: number, idleTtlSeconds: number) {
    this.#connection = connection;
    this.#maxObservations = maxObservationsPerRun;
    this.#idleMs = idleTtlSeconds * 1000;
  }

  /**
   * Opens `runId` with a complete, empty history; false (and no change) when the run is known.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the run's data is malformed.
   */
  async startRun(runId: string): Promise<boolean> {
    return (await this.#run(START_RUN, runId, [])) === 'started';
  }

  /**
   * The run's history, or null when the run is unknown or idle past its TTL.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the run's data is malformed.
   */
  async load(runId: string): Promise<InvocationHistory | null> {
    const reply = await this.#connection.run('history', LOAD, [this.#key(runId)], this.#args([]));
    const [verdict, complete, ...observations] = Array.isArray(reply) ? (reply as unknown[]) : [];
    if (verdict === 'unknown') return null;
    if (verdict !== 'loaded' || (complete !== '0' && complete !== '1'))
      throw this.#malformed(runId, 'a run with missing or mistyped fields');
    return new InvocationHistory(
      observations.map((text) => this.#decode(runId, text)),
      complete === '1',
    );
  }

  /**
   * Appends one observation (its tool, outcome and target only); an unknown run is recorded as
   * incomplete.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the run's data is malformed;
   *   nothing is recorded then.
   */
  async append(runId: string, observation: InvocationObservation): Promise<void> {
    const target = observation.target === null ? null : { kind: observation.target.kind, id: observation.target.id };
    await this.#run(APPEND, runId, [
      String(this.#maxObservations),
      JSON.stringify({ tool: observation.tool, outcome: observation.outcome, target }),
    ]);
  }

  async #run(script: RedisScript, runId: string, extra: readonly string[]): Promise<unknown> {
    const reply = await this.#connection.run('history', script, [this.#key(runId)], this.#args(extra));
    const verdict = Array.isArray(reply) ? (reply as unknown[])[0] : undefined;
    if (verdict === 'malformed' || verdict === undefined) throw this.#malformed(runId, 'a run with missing or mistyped fields');
    return verdict;
  }

  #args(extra: readonly string[]): string[] {
    return [String(this.#connection.now()), String(this.#idleMs), ...extra];
  }

  #key(runId: string): string {
    return this.#connection.key('history', runId);
  }

  #decode(runId: string, text: unknown): InvocationObservation {
    const fields = StoredFields.of(fromJsonText(text), (what) => this.#malformed(runId, `an observation: ${what}`));
    const outcome = fields.raw('outcome');
    if (!InvocationOutcome.isInvocationOutcome(outcome)) throw this.#malformed(runId, 'an observation with an unknown outcome');
    const target = fields.optionalObject('target');
    if (target === undefined) return { tool: fields.text('tool'), outcome, target: null };
    const targetFields = StoredFields.of(target, (what) => this.#malformed(runId, `an observation's target: ${what}`));
    return { tool: fields.text('tool'), outcome, target: { kind: targetFields.text('kind'), id: targetFields.text('id') } };
  }

  #malformed(runId: string, what: string): ReturnType<typeof malformedData> {
    return malformedData('history', `run '${runId}': ${what}`);
  }
}
