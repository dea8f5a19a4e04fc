import { MilpaError, ToolContext, ToolResult, type ChannelRenderer } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { RendererRegistry } from './renderer-registry.js';

function rendererFor(channel: string, output: string): ChannelRenderer<string> {
  return { supports: (candidate) => candidate === channel, render: () => output };
}

describe('RendererRegistry', () => {
  describe('render', () => {
    it('uses the renderer that claims the context channel when several are added', () => {
      const registry = new RendererRegistry()
        .addRenderer(rendererFor('telegram', 'from telegram'))
        .addRenderer(rendererFor('cli', 'from cli'));
      expect(registry.render(ToolResult.success(), new ToolContext({ channel: 'cli' }))).toBe('from cli');
    });

    it('lets the first added renderer win when two claim the same channel', () => {
      const registry = new RendererRegistry().addRenderer(rendererFor('cli', 'first')).addRenderer(rendererFor('cli', 'second'));
      expect(registry.render(ToolResult.success(), ToolContext.cli())).toBe('first');
    });

    it("renders for the 'default' channel when there is no context", () => {
      const registry = new RendererRegistry().addRenderer(rendererFor('default', 'no context'));
      expect(registry.render(ToolResult.success())).toBe('no context');
      expect(registry.render(ToolResult.success(), null)).toBe('no context');
    });

    it('falls back to the default renderer when no renderer claims the channel', () => {
      const registry = new RendererRegistry()
        .addRenderer(rendererFor('telegram', 'from telegram'))
        .setDefaultRenderer(rendererFor('any', 'fallback'));
      expect(registry.render(ToolResult.success(), ToolContext.mcp('r1'))).toBe('fallback');
    });

    it('returns the result JSON when nothing is registered at all', () => {
      const rendered = new RendererRegistry().render(ToolResult.success({ id: 7 }, 'done'));
      expect(typeof rendered).toBe('string');
      expect(JSON.parse(rendered).data).toEqual({ id: 7 });
      expect(rendered).toBe(ToolResult.success({ id: 7 }, 'done').toJson());
    });

    it('passes the result and the context to the chosen renderer', () => {
      const render = vi.fn(() => 'ok');
      const registry = new RendererRegistry().addRenderer({ supports: () => true, render });
      const result = ToolResult.success(1);
      const context = ToolContext.cli();
      registry.render(result, context);
      expect(render).toHaveBeenCalledWith(result, context);
    });
  });

  describe('getRenderer', () => {
    it('returns the claiming renderer or else the default', () => {
      const cli = rendererFor('cli', 'x');
      const fallback = rendererFor('none', 'y');
      const registry = new RendererRegistry().addRenderer(cli).setDefaultRenderer(fallback);
      expect(registry.getRenderer('cli')).toBe(cli);
      expect(registry.getRenderer('telegram')).toBe(fallback);
    });

    it('returns null when nothing claims the channel and there is no default', () => {
      expect(new RendererRegistry().addRenderer(rendererFor('cli', 'x')).getRenderer('web')).toBeNull();
    });
  });

  describe('hasRenderer', () => {
    it('answers honestly when only some channels are claimed', () => {
      const registry = new RendererRegistry().addRenderer(rendererFor('cli', 'x'));
      expect(registry.hasRenderer('cli')).toBe(true);
      expect(registry.hasRenderer('telegram')).toBe(false);
      registry.setDefaultRenderer(rendererFor('none', 'y'));
      expect(registry.hasRenderer('telegram')).toBe(true);
    });
  });

  describe('addRenderer', () => {
    it('returns the registry itself so calls chain', () => {
      const registry = new RendererRegistry();
      expect(registry.addRenderer(rendererFor('cli', 'x'))).toBe(registry);
      expect(registry.setDefaultRenderer(rendererFor('cli', 'x'))).toBe(registry);
    });

    it('throws INVALID_ARGUMENT and keeps nothing when the renderer has no render method', () => {
      const registry = new RendererRegistry();
      let caught: unknown;
      try {
        registry.addRenderer({ supports: () => true } as unknown as ChannelRenderer<string>);
      } catch (error) {
        caught = error;
      }
      expect(MilpaError.isInstance(caught) && caught.code).toBe('INVALID_ARGUMENT');
      expect(registry.hasRenderer('cli')).toBe(false);
      expect(() => registry.setDefaultRenderer(null as never)).toThrow(/setDefaultRenderer\(\) needs a renderer/);
    });
  });
});
