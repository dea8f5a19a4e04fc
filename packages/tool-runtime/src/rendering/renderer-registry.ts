import { MilpaError, type ChannelRenderer, type ToolContext, type ToolResult } from '@milpa/core';

function checkRenderer(method: string, renderer: unknown): void {
  const candidate = renderer as Partial<ChannelRenderer> | null;
  if (
    typeof candidate !== 'object' ||
    candidate === null ||
    typeof candidate.supports !== 'function' ||
    typeof candidate.render !== 'function'
  ) {
    throw new MilpaError(`RendererRegistry.${method}() needs a renderer with supports(channel) and render(result, context).`, {
      code: 'INVALID_ARGUMENT',
    });
  }
}

/**
 * Picks the renderer for a result by the caller's channel: the first added renderer that supports
 * the channel, else the default renderer, else the result's own pretty JSON, so a result is never
 * lost for want of a renderer.
 *
 * @example
 * const renderers = new RendererRegistry()
 *   .addRenderer(new CliRenderer({ color: true }))
 *   .setDefaultRenderer(new DefaultRenderer());
 * renderers.render(result, ToolContext.cli()); // CliRenderer
 * renderers.render(result, ToolContext.telegram(42)); // DefaultRenderer
 */
export class RendererRegistry<TOutput = string> {
  readonly #renderers: ChannelRenderer<TOutput>[] = [];
  #defaultRenderer: ChannelRenderer<TOutput> | null = null;

  /**
   * Adds a renderer after those already added (earlier ones win for a shared channel).
   * @throws MilpaError `INVALID_ARGUMENT` when `renderer` lacks `supports` or `render`.
   */
  addRenderer(renderer: ChannelRenderer<TOutput>): this {
    checkRenderer('addRenderer', renderer);
    this.#renderers.push(renderer);
    return this;
  }

  /**
   * Sets the renderer used when no added renderer supports the channel.
   * @throws MilpaError `INVALID_ARGUMENT` when `renderer` lacks `supports` or `render`.
   */
  setDefaultRenderer(renderer: ChannelRenderer<TOutput>): this {
    checkRenderer('setDefaultRenderer', renderer);
    this.#defaultRenderer = renderer;
    return this;
  }

  /** Renders `result` for `context.channel`, or for `'default'` without a context. */
  render(result: ToolResult, context?: ToolContext | null): TOutput | string {
    const renderer = this.getRenderer(context?.channel ?? 'default');
    return renderer === null ? result.toJson() : renderer.render(result, context ?? null);
  }

  /** The first added renderer that supports `channel`, else the default renderer, else null. */
  getRenderer(channel: string): ChannelRenderer<TOutput> | null {
    return this.#renderers.find((renderer) => renderer.supports(channel)) ?? this.#defaultRenderer;
  }

  /** True when an added renderer supports `channel` or a default renderer is set. */
  hasRenderer(channel: string): boolean {
    return this.getRenderer(channel) !== null;
  }
}
