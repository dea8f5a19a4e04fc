import { MilpaError } from '@milpa/core';

/** Thrown by `ToolRegistry.register()` for a name that is already registered (`TOOL_ALREADY_REGISTERED`). */
export class ToolAlreadyRegisteredError extends MilpaError {
  /** The duplicate tool name. */
  readonly toolName: string;

  constructor(toolName: string) {
    super(`Tool already registered: ${toolName}`, { code: 'TOOL_ALREADY_REGISTERED' });
    this.toolName = toolName;
  }
}
