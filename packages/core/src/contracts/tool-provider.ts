import type { ToolRegistry } from './tool-registry.js';

/**
 * A plugin that contributes tools (and, optionally, prompt text describing them).
 *
 * @example
 * const notesPlugin: ToolProvider = {
 *   registerTools(registry) {
 *     registry.register(listNotes);
 *   },
 * };
 */
export interface ToolProvider {
  /** Registers this plugin's tools. */
  registerTools(registry: ToolRegistry): void | Promise<void>;
  /** Prompt sections that explain the tools to a model. */
  getPromptSections?(): readonly string[];
}
