import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './is-loopback-host.js';

describe('isLoopbackHost', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LocalHost', '::1', '[::1]'])('is true for %s', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '192.168.1.10', 'example.com', '127.0.0.1.example.com', 'localhost.example.com'])('is false for %s', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});
