import type { ToolContext } from '../context/tool-context.js';
import type { ToolResult } from '../result/tool-result.js';

/** Presents a `ToolResult` for one kind of channel (a terminal, a chat, a web page). */
export interface ChannelRenderer<TOutput = unknown> {
  /** True when this renderer handles `channel`. */
  supports(channel: string): boolean;
  /** Renders `result` for the caller in `context` (null when there is none). */
  render(result: ToolResult, context?: ToolContext | null): TOutput;
}
