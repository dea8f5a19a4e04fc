import type { ToolContext } from '../context/tool-context.js';
import type { ToolResult } from '../result/tool-result.js';
import type { ToolArgs } from '../tools/tool-definition.js';

/**
 * Dispatched as `tool.executed` (payload `{ event }`) after a live execution or a cache
 * short-circuit (`cacheServed: true`). A readonly notification: it cannot change the result. Safe to
 * forward to a log sink: the registry puts redacted arguments in it, and scrubs an error result's
 * text of the call's secrets.
 */
export class ToolExecutedEvent {
  /** The tool's name. */
  readonly name: string;
  /** The caller's context. */
  readonly context: ToolContext;
  /**
   * The arguments the handler saw (or would have seen, on a cache hit), redacted: secret fields
   * replaced by a placeholder and secret values scrubbed from the other strings. The real values are
   * only in `tool.executing`.
   */
  readonly args: ToolArgs;
  /**
   * The result `call()` returns; for an error result whose message or error quoted a secret, a copy
   * with that text scrubbed (the data and meta are the same).
   */
  readonly result: ToolResult;
  /** True when a `tool.executing` listener answered instead of the handler. */
  readonly cacheServed: boolean;

  /** Built by the registry; `cacheServed` defaults to false (a live execution). */
  constructor(name: string, context: ToolContext, args: ToolArgs, result: ToolResult, cacheServed = false) {
    this.name = name;
    this.context = context;
    this.args = args;
    this.result = result;
    this.cacheServed = cacheServed;
    Object.freeze(this);
  }
}
