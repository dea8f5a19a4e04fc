import { describe, expect, it } from 'vitest';
import { InMemoryConsoleSessionStore } from './in-memory-console-session-store.js';

function session(key: string, credential = 'c') {
  return { key, principal: 'user:ana', credential, createdAt: 0, lastUsedAt: 0 };
}

describe('InMemoryConsoleSessionStore', () => {
  describe('create', () => {
    it('keeps at most 10,000 sessions by default, ending the oldest begun first', () => {
      const store = new InMemoryConsoleSessionStore();
      for (let index = 0; index <= 10_000; index += 1) store.create(session(`k${index}`, `c${index}`));
      expect(store.size).toBe(10_000);
      expect(store.get('k0')).toBeNull();
      expect(store.get('k1')).not.toBeNull();
      expect(store.get('k10000')).not.toBeNull();
    });

    it('keeps at most 20 sessions per credential by default: one token signing in again and again evicts only its own', () => {
      const store = new InMemoryConsoleSessionStore({ maxSessions: 30 });
      store.create(session('luis', 'luis-token'));
      for (let index = 0; index < 10_000; index += 1) store.create(session(`ana${index}`, 'ana-token'));
      expect(store.size).toBe(21);
      expect(store.get('luis')?.credential).toBe('luis-token');
      expect(store.get('ana9979')).toBeNull();
      expect(store.get('ana9980')).not.toBeNull();
      expect(store.get('ana9999')).not.toBeNull();
      store.revoke('ana9999');
      store.create(session('ana-next', 'ana-token'));
      expect(store.get('ana9980')).not.toBeNull();
    });

    it('refuses a maxSessionsPerCredential that is not a whole number of at least 1', () => {
      expect(() => new InMemoryConsoleSessionStore({ maxSessionsPerCredential: 0 })).toThrow('maxSessionsPerCredential');
    });

    it('evicts by the order sessions began, not their last use', () => {
      const store = new InMemoryConsoleSessionStore({ maxSessions: 2 });
      store.create(session('a'));
      store.create(session('b'));
      store.touch('a', 5);
      store.create(session('c'));
      expect(store.get('a')).toBeNull();
      expect(store.get('b')?.key).toBe('b');
    });

    it('refuses a maxSessions that is not a whole number of at least 1', () => {
      expect(() => new InMemoryConsoleSessionStore({ maxSessions: 0 })).toThrow('maxSessions');
      expect(() => new InMemoryConsoleSessionStore({ maxSessions: 1.5 })).toThrow('maxSessions');
    });
  });

  describe('touch and revoke', () => {
    it('records the last use, and revoke forgets the session', () => {
      const store = new InMemoryConsoleSessionStore();
      store.create(session('a'));
      store.touch('a', 42);
      expect(store.get('a')?.lastUsedAt).toBe(42);
      store.revoke('a');
      expect(store.get('a')).toBeNull();
      store.touch('a', 50);
      expect(store.get('a')).toBeNull();
    });
  });
});
