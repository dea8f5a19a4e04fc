import type { ToolContext } from '../context/tool-context.js';
import type { ToolDenialReason } from './tool-denial-reason.js';

/**
 * Dispatched as `tool.denied` (payload `{ event }`) when authorization or the rate limiter refuses
 * a call: whether this caller may use this tool at all. It carries no arguments.
 */
export class ToolDeniedEvent {
  /** The tool's name. */
  readonly name: string;
  /** The caller's context. */
  readonly context: ToolContext;
  /** Why, from a closed set. */
  readonly reason: ToolDenialReason;
  /** The refusal's message, as the caller got it (it names scopes and channels, never arguments). */
  readonly message: string;

  /** Built by the registry when authorization or the rate limiter refuses a call. */
  constructor(name: string, context: ToolContext, reason: ToolDenialReason, message: string) {
    this.name = name;
    this.context = context;
    this.reason = reason;
    this.message = message;
    Object.freeze(this);
  }
}
