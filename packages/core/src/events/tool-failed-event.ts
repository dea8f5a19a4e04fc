import type { ToolContext } from '../context/tool-context.js';
import type { ToolArgs } from '../tools/tool-definition.js';

/** Dispatched as `tool.failed` (payload `{ event }`) when the handler threw or rejected. */
export class ToolFailedEvent {
  /** The tool's name. */
  readonly name: string;
  /** The caller's context. */
  readonly context: ToolContext;
  /** The arguments the handler saw. */
  readonly args: ToolArgs;
  /** What the handler threw (any value, not only an `Error`). */
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
