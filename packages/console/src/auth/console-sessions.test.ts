import { describe, expect, it } from 'vitest';
import { ConsoleSessions } from './console-sessions.js';
import { InMemoryConsoleSessionStore } from './in-memory-console-session-store.js';

describe('ConsoleSessions', () => {
  describe('start', () => {
    it('answers 256 random bits as base64url, and the store keeps only a digest of them', async () => {
      const store = new InMemoryConsoleSessionStore({ maxSessionsPerCredential: 50 });
      const sessions = new ConsoleSessions({ store, now: () => 1000 });
      const ids = new Set<string>();
      for (let index = 0; index < 50; index += 1) ids.add(await sessions.start('user:ana', 'credential'));
      expect(ids.size).toBe(50);
      for (const id of ids) {
        expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(Buffer.from(id, 'base64url')).toHaveLength(32);
        expect(store.get(id)).toBeNull();
      }
      expect(store.size).toBe(50);
    });
  });

  describe('resolve', () => {
    it('answers null for a missing, malformed, unknown or revoked id', async () => {
      const sessions = new ConsoleSessions();
      const id = await sessions.start('user:ana', 'credential');
      expect((await sessions.resolve(id))?.principal).toBe('user:ana');
      for (const bad of [undefined, '', `${id}x`, id.slice(1), `${id.slice(0, 42)}=`, 'A'.repeat(43)]) {
        expect(await sessions.resolve(bad)).toBeNull();
      }
      await sessions.end(id);
      expect(await sessions.resolve(id)).toBeNull();
    });

    it('ends a session at the idle and at the absolute lifetime, measured with the clock given', async () => {
      let now = 0;
      const sessions = new ConsoleSessions({ idleTimeoutMs: 100, absoluteTimeoutMs: 250, now: () => now });
      const id = await sessions.start('user:ana', 'credential');
      for (const at of [99, 198, 249]) {
        now = at;
        expect(await sessions.resolve(id)).not.toBeNull();
      }
      now = 250;
      expect(await sessions.resolve(id)).toBeNull();
      const idle = await sessions.start('user:ana', 'credential');
      now = 350;
      expect(await sessions.resolve(idle)).toBeNull();
    });
  });
});
