import {
  InterceptionSlot,
  ListenerPriority,
  ToolEvents,
  ToolExecutedEvent,
  ToolExecutingEvent,
  ToolResult,
  type EventDispatcher,
  type ToolArgs,
} from '@milpa/core';

/**
 * The cache-plugin recipe: a `tool.executing` listener that answers repeat calls of the
 * cached tools from memory, so their handlers do not run again. Results are stored from
 * `tool.executed` (successes only, never a result the cache itself served).
 *
 * Because the registry dispatches `tool.executing` only after every gate passed, a call that was
 * denied, invalid or rate-limited never reaches this listener: `invocations` does not move for it.
 *
 * @example
 * const cache = new LookupCache(['lookup_crop']).attach(dispatcher);
 * await registry.call('lookup_crop', { name: 'maize' }, context); // handler runs
 * await registry.call('lookup_crop', { name: 'maize' }, context); // served from cache
 * cache.hits; // 1
 */
export class LookupCache {
  readonly #tools: ReadonlySet<string>;
  readonly #entries = new Map<string, ToolResult>();
  #invocations = 0;
  #hits = 0;

  /** Caches the tools named in `tools`. */
  constructor(tools: readonly string[]) {
    this.#tools = new Set(tools);
  }

  /** How many times the `tool.executing` listener ran for a cached tool. */
  get invocations(): number {
    return this.#invocations;
  }

  /** How many calls the cache answered. */
  get hits(): number {
    return this.#hits;
  }

  /** Subscribes the cache to `dispatcher` and returns it. */
  attach(dispatcher: EventDispatcher): this {
    // Ahead of ordinary listeners: a hit should end the dispatch before anything else runs.
    dispatcher.subscribe(ToolEvents.EXECUTING, (_name, payload) => this.#onExecuting(payload), ListenerPriority.HIGH);
    dispatcher.subscribe(ToolEvents.EXECUTED, (_name, payload) => this.#onExecuted(payload));
    return this;
  }

  #onExecuting(payload: Readonly<Record<string, unknown>>): void {
    const { event, slot } = payload;
    if (!(event instanceof ToolExecutingEvent) || !InterceptionSlot.isInstance(slot) || !this.#tools.has(event.name)) return;
    this.#invocations += 1;
    const cached = this.#entries.get(LookupCache.#key(event.name, event.args));
    if (cached === undefined) return;
    this.#hits += 1;
    // The registry returns a short-circuited ToolResult as it is, so its meta must describe this call.
    const { context } = event;
    slot.shortCircuit(
      ToolResult.success(cached.data, `${cached.message ?? 'Result'} (served from cache)`, {
        tool: event.name,
        request_id: context.requestId,
        channel: context.channel,
        principal: context.principal,
        cache_hit: true,
      }),
    );
  }

  #onExecuted(payload: Readonly<Record<string, unknown>>): void {
    const { event } = payload;
    if (!(event instanceof ToolExecutedEvent) || event.cacheServed || !event.result.success || !this.#tools.has(event.name)) return;
    this.#entries.set(LookupCache.#key(event.name, event.args), event.result);
  }

  static #key(name: string, args: ToolArgs): string {
    return `${name}:${JSON.stringify(args)}`;
  }
}
