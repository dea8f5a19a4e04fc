import { describe, expect, it } from 'vitest';
import { HostOriginGuard } from './host-origin-guard.js';

describe('HostOriginGuard', () => {
  describe('check', () => {
    const guard = new HostOriginGuard();

    it.each(['localhost', 'localhost:3000', '127.0.0.1:80', '[::1]:3000', 'LOCALHOST:1'])('accepts the loopback Host %s', (host) => {
      expect(guard.check({ host })).toBeNull();
    });

    it.each(['evil.example.com', 'evil.example.com:3000', 'localhost.evil.com', '127.0.0.1.nip.io', '0.0.0.0:3000'])(
      'refuses the Host %s',
      (host) => {
        expect(guard.check({ host })).toBe(`Invalid Host header: ${host}`);
      },
    );

    it('refuses a request without a Host header', () => {
      expect(guard.check({})).toBe('Invalid Host header: (none)');
    });

    it('refuses a request without a Host header even when the hostname "undefined" is allowed', () => {
      expect(new HostOriginGuard(['undefined']).check({})).toBe('Invalid Host header: (none)');
    });

    it.each(['http://localhost:5173', 'https://127.0.0.1', 'http://[::1]:8080'])('accepts the loopback Origin %s', (origin) => {
      expect(guard.check({ host: 'localhost:3000', origin })).toBeNull();
    });

    it.each(['http://evil.example.com', 'null', 'file://', 'chrome-extension://abc', 'not a url'])('refuses the Origin %s', (origin) => {
      expect(guard.check({ host: 'localhost:3000', origin })).toBe(`Invalid Origin header: ${origin}`);
    });

    it('accepts configured hostnames on any port and configured origins exactly', () => {
      const configured = new HostOriginGuard(['MCP.internal'], ['https://App.example.com/']);
      expect(configured.check({ host: 'mcp.internal:9000' })).toBeNull();
      expect(configured.check({ host: 'mcp.internal', origin: 'https://app.example.com' })).toBeNull();
      expect(configured.check({ host: 'mcp.internal', origin: 'https://app.example.com:444' })).toBe(
        'Invalid Origin header: https://app.example.com:444',
      );
    });

    it.each(['[', 'a b', 'localhost:port', ''])('refuses the unparsable Host %j', (host) => {
      expect(guard.check({ host })).toBe(`Invalid Host header: ${host}`);
    });

    it.each(['HTTP://LOCALHOST:5173', 'http://LocalHost', 'https://127.0.0.1:443/'])(
      'accepts the loopback Origin %s in any case',
      (origin) => {
        expect(guard.check({ host: 'localhost', origin })).toBeNull();
      },
    );

    it.each(['ws://localhost:3000', 'file://localhost/x', 'ftp://127.0.0.1'])(
      'refuses the Origin %s on a loopback host with another scheme',
      (origin) => {
        expect(guard.check({ host: 'localhost', origin })).toBe(`Invalid Origin header: ${origin}`);
      },
    );

    it('quotes a refused Origin as sent', () => {
      expect(guard.check({ host: 'localhost', origin: 'HTTP://Evil.Example' })).toBe('Invalid Origin header: HTTP://Evil.Example');
    });

    it('accepts a configured origin in any case and with trailing slashes configured', () => {
      const configured = new HostOriginGuard([], ['https://app.example.com//', 'HTTP://Other.Example']);
      expect(configured.check({ host: 'localhost', origin: 'HTTPS://APP.EXAMPLE.COM' })).toBeNull();
      expect(configured.check({ host: 'localhost', origin: 'http://other.example' })).toBeNull();
      expect(configured.check({ host: 'localhost', origin: 'https://app.example.com/' })).toBe(
        'Invalid Origin header: https://app.example.com/',
      );
      expect(configured.check({ host: 'app.example.com' })).toBe('Invalid Host header: app.example.com');
    });

    it.each(['Stryker was here', 'app.example.com', 'localhost'])(
      'refuses the free-text Origin %j when no origins are configured (the default list is empty)',
      (origin) => {
        expect(new HostOriginGuard().check({ host: 'localhost', origin })).toBe(`Invalid Origin header: ${origin}`);
        expect(new HostOriginGuard(['app.example.com']).check({ host: 'localhost', origin })).toBe(`Invalid Origin header: ${origin}`);
      },
    );

    it('accepts an Origin on a configured hostname, and keeps the loopback names beside configured ones', () => {
      const configured = new HostOriginGuard(['mcp.internal']);
      expect(configured.check({ host: 'localhost', origin: 'https://MCP.internal:8443' })).toBeNull();
      expect(configured.check({ host: '127.0.0.1' })).toBeNull();
      expect(configured.check({ host: 'mcp.internal', origin: 'https://other.internal' })).toBe(
        'Invalid Origin header: https://other.internal',
      );
    });

    describe('with checkHost off (a non-loopback bind without allowedHosts)', () => {
      const originOnly = new HostOriginGuard([], ['https://app.example.com'], { checkHost: false });

      it('accepts any Host, and a request without one', () => {
        expect(originOnly.check({ host: 'mcp.example.com' })).toBeNull();
        expect(originOnly.check({})).toBeNull();
      });

      it('still checks the Origin', () => {
        expect(originOnly.check({ host: 'mcp.example.com', origin: 'https://evil.example' })).toBe(
          'Invalid Origin header: https://evil.example',
        );
        expect(originOnly.check({ host: 'mcp.example.com', origin: 'null' })).toBe('Invalid Origin header: null');
        expect(originOnly.check({ host: 'mcp.example.com', origin: 'https://app.example.com' })).toBeNull();
        expect(originOnly.check({ host: 'mcp.example.com', origin: 'http://localhost:5173' })).toBeNull();
      });
    });
  });
});
