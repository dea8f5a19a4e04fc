import type { AnyToolDefinition, ToolContext } from '@milpa/core';
import { ToolRegistry, type ToolRegistryOptions } from '@milpa/tool-runtime';

/**
 * The gateway's registry: a `ToolRegistry` whose listings leave out tools their upstream no
 * longer offers (a registry cannot unregister a tool, and an upstream may withdraw one after
 * `tools/list_changed`). A call to such a tool still runs the pipeline and is answered
 * `TOOL_NOT_FOUND` by its handler, without reaching the upstream.
 */
export class GatewayToolRegistry extends ToolRegistry {
  readonly #isOffered: (name: string) => boolean;

  constructor(options: ToolRegistryOptions, isOffered: (name: string) => boolean) {
    super(options);
    this.#isOffered = isOffered;
  }

  /** The tools `context` may call (see `ToolRegistry.listToolsFor`) that their upstream still offers. */
  override async listToolsFor(context: ToolContext): Promise<readonly AnyToolDefinition[]> {
    const tools = await super.listToolsFor(context);
    return tools.filter((tool) => this.#isOffered(tool.name));
  }
}
