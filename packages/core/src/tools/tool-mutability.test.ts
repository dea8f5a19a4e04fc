import { describe, expect, it, vi } from 'vitest';
import { defineTool } from './define-tool.js';
import { isMutatingCall, mutabilityOf } from './tool-mutability.js';

const handler = () => null;

describe('isMutatingCall', () => {
  it('answers a boolean flag without looking at the arguments', () => {
    expect(isMutatingCall(defineTool({ name: 'a', description: '', mutating: true, handler }), {})).toBe(true);
    expect(isMutatingCall(defineTool({ name: 'b', description: '', mutating: false, handler }), {})).toBe(false);
    expect(isMutatingCall(defineTool({ name: 'c', description: '', handler }), {})).toBe(false);
  });

  it('asks a per-call function once, with the arguments, and returns its answer', () => {
    const mutating = vi.fn((args: Readonly<Record<string, unknown>>) => args['command'] !== 'ls');
    const definition = defineTool({ name: 'shell', description: '', mutating, handler });
    const args = Object.freeze({ command: 'ls' });

    expect(isMutatingCall(definition, args)).toBe(false);
    expect(mutating).toHaveBeenCalledTimes(1);
    expect(mutating.mock.calls[0]?.[0]).toBe(args);
    expect(isMutatingCall(definition, { command: 'rm x' })).toBe(true);
  });

  it('counts a function that throws as mutating', () => {
    const definition = defineTool({
      name: 'shell',
      description: '',
      mutating: () => {
        throw new Error('cannot tell');
      },
      handler,
    });

    expect(isMutatingCall(definition, {})).toBe(true);
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['0', 0],
    ["'false'", 'false'],
    ['a promise of false', Promise.resolve(false)],
  ])('counts a non-boolean answer (%s) as mutating', (_label, answer) => {
    const definition = defineTool({ name: 'shell', description: '', mutating: () => answer as never, handler });

    expect(isMutatingCall(definition, {})).toBe(true);
  });

  it('counts a hand-built subject whose mutating is neither a boolean nor a function as mutating', () => {
    expect(isMutatingCall({ mutating: 'no' as never }, {})).toBe(true);
  });
});

describe('mutabilityOf', () => {
  it('says mutating, read_only or depends_on_arguments without calling the function', () => {
    const mutating = vi.fn(() => false);

    expect(mutabilityOf(defineTool({ name: 'a', description: '', mutating: true, handler }))).toBe('mutating');
    expect(mutabilityOf(defineTool({ name: 'b', description: '', handler }))).toBe('read_only');
    expect(mutabilityOf(defineTool({ name: 'c', description: '', mutating, handler }))).toBe('depends_on_arguments');
    expect(mutating).not.toHaveBeenCalled();
  });

  it('treats a hand-built subject whose mutating is not a boolean or function as mutating', () => {
    expect(mutabilityOf({ mutating: undefined as never })).toBe('mutating');
  });
});
