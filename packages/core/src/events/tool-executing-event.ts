import type { ToolContext } from '../context/tool-context.js';
import type { ToolArgs } from '../tools/tool-definition.js';

/**
 * Dispatched as `tool.executing` (payload `{ event, slot }`) once every gate has passed and just
 * before the handler runs. `args` are the final arguments the handler will see, frozen and NOT
 * redacted: a listener that answers instead of the handler (a cache) or vetoes a call needs the real
 * values. It is the only event that carries them; never forward it to a log sink as it is
 * (`tool.executed` and `tool.failed` carry redacted copies).
 */
export class ToolExecutingEvent {
  /** The tool's name. */
  readonly name: string;
  /** The caller's context. */
  readonly context: ToolContext;
  /** The validated, clamped (or redeemed) arguments, deeply frozen and with their secrets in clear. */
  readonly args: ToolArgs;

  /** Built by the registry just before the handler would run. */
  constructor(name: string, context: ToolContext, args: ToolArgs) {
    this.name = name;
    this.context = context;
    this.args = args;
    Object.freeze(this);
  }
}
