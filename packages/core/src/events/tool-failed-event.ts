import type { ToolContext } from '../context/tool-context.js';
import type { ToolArgs } from '../tools/tool-definition.js';

/**
 * Dispatched as `tool.failed` (payload `{ event }`) when the handler threw or rejected. Safe to
 * forward to a log sink: the registry puts redacted arguments and a scrubbed error in it.
 */
export class ToolFailedEvent {
  /** The tool's name. */
  readonly name: string;
  /** The caller's context. */
  readonly context: ToolContext;
  /**
   * The arguments the handler saw, redacted: secret fields replaced by a placeholder and secret
   * values scrubbed from the other strings. The real values are only in `tool.executing`.
   */
  readonly args: ToolArgs;
  /**
   * What the handler threw (any value, not only an `Error`): as thrown when its text holds no
   * secret; otherwise an `Error` of the same `name` whose message and stack are scrubbed (its
   * `cause` dropped), a scrubbed string, or a redacted copy of any other value.
   */
  readonly error: unknown;
  /** Milliseconds from the start of `call()` to the failure. */
  readonly tookMs: number;

  /** Built by the registry when the handler threw or rejected. */
  constructor(name: string, context: ToolContext, args: ToolArgs, error: unknown, tookMs: number) {
    this.name = name;
    this.context = context;
    this.args = args;
    this.error = error;
    this.tookMs = tookMs;
    Object.freeze(this);
  }
}
