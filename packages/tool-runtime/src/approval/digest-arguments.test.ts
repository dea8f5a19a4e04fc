import { describe, expect, it } from 'vitest';
import { digestArguments } from './digest-arguments.js';

describe('digestArguments', () => {
  it('gives the digest that earlier releases stored for the same arguments, so held calls survive an upgrade', () => {
    expect(digestArguments({ b: [1, { z: true, a: 'x' }], a: null, c: 'é' })).toBe(
      'fc84f9ff92a6e14ef6225a34e7dae10782269b876e8d357ece759dc458ad4d38',
    );
  });

  it('does not depend on key order at any depth', () => {
    expect(digestArguments({ id: 7, nested: { y: 1, x: [{ b: 2, a: 1 }] } })).toBe(
      digestArguments({ nested: { x: [{ a: 1, b: 2 }], y: 1 }, id: 7 }),
    );
  });

  it('tells apart arguments that differ only under a __proto__ key', () => {
    const one = JSON.parse('{"__proto__":{"admin":false},"id":1}') as Record<string, unknown>;
    const other = JSON.parse('{"__proto__":{"admin":true},"id":1}') as Record<string, unknown>;
    expect(digestArguments(one)).not.toBe(digestArguments(other));
  });

  it('refuses arguments that are not JSON instead of digesting part of them', () => {
    const cyclic: Record<string, unknown> = { id: 1 };
    cyclic.self = cyclic;
    expect(() => digestArguments(cyclic)).toThrow(TypeError);
    expect(() => digestArguments({ big: 1n })).toThrow(TypeError);
  });
});
