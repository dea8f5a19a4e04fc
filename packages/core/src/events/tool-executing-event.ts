import type { ToolContext } from '../context/tool-context.js';
import type { ToolArgs } from '../tools/tool-definition.js';

/**
 * Dispatched as `tool.executing` (payload `{ event, slot }`) once every gate has passed and just
 * before the handler runs. `args` are the final arguments the handler will see.
 */
export class ToolExecutingEvent {
  /** The tool's name. */
  readonly name: string;
  /** The caller's context. */
  readonly context: ToolContext;
  /** The validated, clamped (or redeemed) arguments. */
  readonly args: ToolArgs;

  /** Built by the registry just before the handler would run. */
  constructor(name: string, context: ToolContext, args: ToolArgs) {
    this.name = name;
    this.context = context;
    this.args = args;
    Object.freeze(this);
  }
}
