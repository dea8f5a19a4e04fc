import { describe, expect, it } from 'vitest';
import { McpSessionTable, type McpSession, type SessionReservation } from './mcp-session-table.js';

function session(owner: string, lastActive = 0): McpSession {
  return { transport: {} as McpSession['transport'], server: {} as McpSession['server'], principal: owner, owner, active: 0, lastActive };
}

function table(limits: Partial<{ maxSessions: number; maxSessionsPerPrincipal: number; idleMs: number }> = {}) {
  const expired: McpSession[] = [];
  const sessions = new McpSessionTable({
    maxSessions: limits.maxSessions ?? 10,
    maxSessionsPerPrincipal: limits.maxSessionsPerPrincipal ?? 10,
    idleMs: limits.idleMs ?? 1000,
    onExpire: (closed) => expired.push(closed),
  });
  return { sessions, expired };
}

function reserve(sessions: McpSessionTable, owner: string): SessionReservation {
  const reservation = sessions.reserve(owner);
  if (typeof reservation === 'string') throw new Error(`refused: ${reservation}`);
  return reservation;
}

describe('McpSessionTable', () => {
  it('counts sessions being opened against both caps', () => {
    const { sessions } = table({ maxSessions: 3, maxSessionsPerPrincipal: 2 });
    reserve(sessions, 'a');
    reserve(sessions, 'a');
    expect(sessions.reserve('a')).toBe('principal_full');
    reserve(sessions, 'b');
    expect(sessions.reserve('c')).toBe('server_full');
    expect(sessions.size).toBe(0);
  });

  it('gives a place back on release, once; a committed place stays taken', () => {
    const { sessions } = table({ maxSessions: 1 });
    const first = reserve(sessions, 'a');
    first.release();
    first.release();
    const second = reserve(sessions, 'a');
    second.commit('s1', session('a'));
    second.release();
    expect(sessions.size).toBe(1);
    expect(sessions.reserve('b')).toBe('server_full');
  });

  it('frees a principal place when its session is deleted, and only for the stored session', () => {
    const { sessions } = table({ maxSessionsPerPrincipal: 1 });
    const stored = session('a');
    reserve(sessions, 'a').commit('s1', stored);
    expect(sessions.delete('s1', session('a'))).toBe(false);
    expect(sessions.reserve('a')).toBe('principal_full');
    expect(sessions.delete('s1', stored)).toBe(true);
    expect(sessions.delete('s1', stored)).toBe(false);
    expect(typeof sessions.reserve('a')).toBe('object');
  });

  it('expires an idle session on lookup and on sweep, never one with something open', () => {
    const { sessions, expired } = table({ idleMs: 1000 });
    const busy = session('a');
    const idle = session('b');
    reserve(sessions, 'a').commit('busy', busy);
    reserve(sessions, 'b').commit('idle', idle);
    sessions.begin(busy);
    sessions.sweep(5000);
    expect(expired).toEqual([idle]);
    expect(sessions.get('busy', 5000)).toBe(busy);
    sessions.end(busy, 5000);
    expect(sessions.get('busy', 5999)).toBe(busy);
    expect(sessions.get('busy', 6000)).toBeUndefined();
    expect(expired).toEqual([idle, busy]);
    expect(sessions.size).toBe(0);
  });

  it('counts nested activity: idle only after the last open request ends', () => {
    const { sessions, expired } = table({ idleMs: 10 });
    const stored = session('a');
    reserve(sessions, 'a').commit('s', stored);
    sessions.begin(stored);
    sessions.begin(stored);
    sessions.end(stored, 0);
    sessions.sweep(100);
    expect(expired).toEqual([]);
    sessions.end(stored, 100);
    sessions.end(stored, 100);
    expect(stored.active).toBe(0);
    sessions.sweep(110);
    expect(expired).toEqual([stored]);
  });

  it('clear() returns every session and frees every place', () => {
    const { sessions } = table({ maxSessions: 1 });
    const stored = session('a');
    reserve(sessions, 'a').commit('s', stored);
    expect(sessions.clear()).toEqual([stored]);
    expect(sessions.size).toBe(0);
    expect(typeof sessions.reserve('a')).toBe('object');
  });
});
