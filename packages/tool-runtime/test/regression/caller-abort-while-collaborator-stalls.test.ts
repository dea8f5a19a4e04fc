// Regression: a collaborator whose promise never settles (rule provider, limiter, confirmation
// store, tool.executing listener) made call() hang even after the caller aborted its signal.
import { EventDispatcher } from '@milpa/events';
import { ToolContext, defineTool, type ConfirmationStore, type RateLimiter } from '@milpa/core';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmationTokenStore } from '../../src/confirmation/confirmation-token-store.js';
import { ToolRegistry } from '../../src/registry/tool-registry.js';
import type { ToolRegistryOptions } from '../../src/registry/tool-registry-options.js';

const never = <T>() => new Promise<T>(() => undefined);

async function abortedWhileStalled(
  options: ToolRegistryOptions,
  args: Record<string, unknown> = {},
  configure?: (registry: ToolRegistry) => void,
  controls: { readonly confirmToken?: string } = {},
) {
  const registry = new ToolRegistry(options);
  const handler = vi.fn(() => 'ran');
  registry.register(defineTool({ name: 'guarded', description: 'd', requiresConfirmation: controls.confirmToken !== undefined, handler }));
  configure?.(registry);
  const controller = new AbortController();
  setTimeout(() => controller.abort('caller gave up'), 5);
  const result = await registry.call('guarded', args, ToolContext.cli(), { ...controls, signal: controller.signal });
  return { result, handler };
}

describe('regression: caller abort while a collaborator stalls', () => {
  it('refuses with TIMEOUT when the rule provider never answers', async () => {
    const { result, handler } = await abortedWhileStalled({ ruleProvider: { findMatchingRule: () => never() } });
    expect(result.meta['code']).toBe('TIMEOUT');
    expect(result.error).toBe("Call to 'guarded' was aborted by the caller before execution");
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses with TIMEOUT when the rate limiter never answers', async () => {
    const rateLimiter: RateLimiter = { consume: () => never(), getUsage: () => 0, reset: () => undefined };
    const { result, handler } = await abortedWhileStalled({ rateLimiter });
    expect(result.meta['code']).toBe('TIMEOUT');
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses with TIMEOUT when the confirmation store never answers a redemption', async () => {
    const real = new ConfirmationTokenStore();
    const confirmationStore: ConfirmationStore = {
      create: (...params) => real.create(...params),
      consume: () => never(),
      isValid: () => false,
    };
    const { result, handler } = await abortedWhileStalled({ confirmationStore }, {}, undefined, { confirmToken: 'a'.repeat(32) });
    expect(result.meta['code']).toBe('TIMEOUT');
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses with TIMEOUT when a tool.executing listener never returns', async () => {
    const dispatcher = new EventDispatcher();
    dispatcher.subscribe('tool.executing', () => never());
    const { result, handler } = await abortedWhileStalled({ dispatcher });
    expect(result.meta['code']).toBe('TIMEOUT');
    expect(handler).not.toHaveBeenCalled();
  });

  it('still waits for a slow collaborator when the caller does not abort', async () => {
    const registry = new ToolRegistry({
      defaultContext: () => ToolContext.cli(),
      ruleProvider: { findMatchingRule: () => new Promise((resolve) => setTimeout(() => resolve(null), 5)) },
    });
    registry.register(defineTool({ name: 'guarded', description: 'd', handler: () => 'ran' }));
    const result = await registry.call('guarded', {}, ToolContext.cli(), { signal: new AbortController().signal });
    expect(result.data).toBe('ran');
  });
});
