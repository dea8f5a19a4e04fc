import { randomUUID } from 'node:crypto';
import {
  InvocationHistory,
  InvocationOutcome,
  MilpaError,
  type InFlightInvocation,
  type InvocationHistoryStore,
  type InvocationObservation,
  type InvocationReservation,
} from '@milpa/core';
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

/**
 * The places of calls in flight: the field `places`, a JSON array of `{id, exp, call}` in the
 * order they were taken (`call` is the call's JSON text). `livePlaces` answers the places whose
 * lease has not run out, and whether it dropped any; nil when the field is malformed.
 */
const PLACES =
  `
local function livePlaces()
  local raw = redis.call('HGET', KEYS[1], 'places')
  local kept, dropped = {}, false
  if not raw then return kept, dropped end
  local ok, list = pcall(cjson.decode, raw)
  if not ok or type(list) ~= 'table' then return nil end
  for _, place in ipairs(list) do
    if type(place) ~= 'table' or type(place.id) ~= 'string' or ` +
  `type(place.call) ~= 'string' or tonumber(place.exp) == nil then return nil end
    local parsed, call = pcall(cjson.decode, place.call)
    if not parsed or type(call) ~= 'table' or type(call.tool) ~= 'string' then return nil end
    if tonumber(place.exp) > now then kept[#kept + 1] = place else dropped = true end
  end
  return kept, dropped
end
local function savePlaces(places)
  if #places == 0 then redis.call('HDEL', KEYS[1], 'places') else redis.call('HSET', KEYS[1], 'places', cjson.encode(places)) end
end
-- Drops the places past their lease (a call that may or may not have run: the run is no longer complete).
local function sweepPlaces()
  local places, dropped = livePlaces()
  if places == nil then return nil end
  if dropped then
    savePlaces(places)
    redis.call('HSET', KEYS[1], 'complete', '0')
    live.complete = '0'
  end
  return places
end
local function history(places)
  local answer = {live.complete, string.format('%d', live.next - live.first)}
  for n = live.first, live.next - 1 do
    local observation = redis.call('HGET', KEYS[1], field(n))
    if observation == false then return nil end
    answer[#answer + 1] = observation
  end
  for _, place in ipairs(places) do answer[#answer + 1] = place.call end
  return answer
end
-- A run that is not live starts over, incomplete.
local function openRun()
  if live then return end
  redis.call('DEL', KEYS[1])
  live = {complete = '0', first = 1, next = 1}
  redis.call('HSET', KEYS[1], 'complete', '0', 'first', '1', 'next', '1')
end
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

/**
 * Answers `{'loaded', complete, count, observation..., call...}` for a live run (and touches it):
 * `count` observations, then the calls in flight. `{'unknown'}` otherwise.
 */
const LOAD = new RedisScript(
  'history load',
  `${LIVE_RUN}${PLACES}
if not live then return {'unknown'} end
redis.call('HSET', KEYS[1], 'touched', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
local places = sweepPlaces()
if places == nil then return {'malformed'} end
local answer = history(places)
if answer == nil then return {'malformed'} end
table.insert(answer, 1, 'loaded')
return answer
`,
);

/**
 * Takes a place for `ARGV[4]` (the call as JSON) with id `ARGV[3]`, held until `ARGV[5]`
 * (epoch ms), and answers `{'reserved', complete, count, observation..., call...}`: the history
 * up to the place. A run that is not live starts over, incomplete.
 */
const RESERVE = new RedisScript(
  'history reserve',
  `${LIVE_RUN}${PLACES}
openRun()
local places = sweepPlaces()
if places == nil then return {'malformed'} end
local answer = history(places)
if answer == nil then return {'malformed'} end
places[#places + 1] = {id = ARGV[3], exp = ARGV[5], call = ARGV[4]}
savePlaces(places)
redis.call('HSET', KEYS[1], 'touched', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
table.insert(answer, 1, 'reserved')
return answer
`,
);

/**
 * Appends `ARGV[4]` (an observation as JSON) keeping at most `ARGV[3]` observations: past that the
 * oldest are dropped and the run is marked incomplete. A run that is not live starts over,
 * incomplete. With `ARGV[5]`, the place with that id is released in the same step (settle).
 */
const APPEND = new RedisScript(
  'history append',
  `${LIVE_RUN}${PLACES}
openRun()
local places = sweepPlaces()
if places == nil then return {'malformed'} end
if ARGV[5] then
  local kept = {}
  for _, place in ipairs(places) do if place.id ~= ARGV[5] then kept[#kept + 1] = place end end
  savePlaces(kept)
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
 * A run is one hash, `<prefix>history:<runId>`. Each `startRun`, `load`, `append`, `reserve` and
 * `settle` is one Lua script, which Redis runs atomically: overlapping appends, across processes
 * too, lose nothing and keep the order they ran in, and the calls of every process take their
 * places in a run one after another, each answered with the history up to its own place. A place
 * is released by `settle` in the same script that appends the call's observation; a place past
 * its lease is dropped by the next script on its run, which marks the run incomplete. A run keeps at most `maxObservationsPerRun`
 * observations (past it the oldest are dropped and the run becomes incomplete), and a run untouched for `historyIdleTtlSeconds` is
 * forgotten: its key expires on the server, and it loads as unknown, which rules that need a complete history
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
    if (Array.isArray(reply) && reply[0] === 'unknown') return null;
    return this.#history(runId, reply, 'loaded');
  }

  /**
   * Takes the next place in the run for `call` (its tool and target), held for `leaseMs`, and
   * answers it with the history up to that place, in one script. An unknown run is recorded as
   * incomplete.
   *
   * @throws MilpaError `INVALID_ARGUMENT` when `leaseMs` is not a whole number >= 1 (nothing changes);
   *   RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the run's data is malformed.
   */
  async reserve(runId: string, call: InFlightInvocation, leaseMs: number): Promise<InvocationReservation> {
    if (typeof leaseMs !== 'number' || !Number.isSafeInteger(leaseMs) || leaseMs < 1) {
      throw new MilpaError(`RedisInvocationHistoryStore.reserve: leaseMs must be a whole number >= 1, got ${String(leaseMs)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    const id = randomUUID();
    const target = call.target === null ? null : { kind: call.target.kind, id: call.target.id };
    const args = this.#args([id, JSON.stringify({ tool: call.tool, target }), String(this.#connection.now() + leaseMs)]);
    const reply = await this.#connection.run('history', RESERVE, [this.#key(runId)], args);
    return Object.freeze({ id, history: this.#history(runId, reply, 'reserved') });
  }

  /**
   * Releases place `reservationId` and appends `observation`, in one script; a place already
   * dropped still gets its observation.
   *
   * @throws RedisStoreError `STORE_UNAVAILABLE` when Redis fails or the run's data is malformed;
   *   nothing changes then.
   */
  async settle(runId: string, reservationId: string, observation: InvocationObservation): Promise<void> {
    const target = observation.target === null ? null : { kind: observation.target.kind, id: observation.target.id };
    await this.#run(APPEND, runId, [
      String(this.#maxObservations),
      JSON.stringify({ tool: observation.tool, outcome: observation.outcome, target }),
      reservationId,
    ]);
  }

  /** A `{verdict, complete, count, observation..., call...}` reply as a history. */
  #history(runId: string, reply: unknown, verdict: string): InvocationHistory {
    const [answered, complete, count, ...rest] = Array.isArray(reply) ? (reply as unknown[]) : [];
    const observations = Number(count);
    if (
      answered !== verdict ||
      (complete !== '0' && complete !== '1') ||
      !Number.isSafeInteger(observations) ||
      observations < 0 ||
      observations > rest.length
    ) {
      throw this.#malformed(runId, 'a run with missing or mistyped fields');
    }
    return new InvocationHistory(
      rest.slice(0, observations).map((text) => this.#decode(runId, text)),
      complete === '1',
      rest.slice(observations).map((text) => this.#decodeCall(runId, text)),
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

  #decodeCall(runId: string, text: unknown): InFlightInvocation {
    const fields = StoredFields.of(fromJsonText(text), (what) => this.#malformed(runId, `a call in flight: ${what}`));
    const target = fields.optionalObject('target');
    if (target === undefined) return { tool: fields.text('tool'), target: null };
    const targetFields = StoredFields.of(target, (what) => this.#malformed(runId, `a call in flight's target: ${what}`));
    return { tool: fields.text('tool'), target: { kind: targetFields.text('kind'), id: targetFields.text('id') } };
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
