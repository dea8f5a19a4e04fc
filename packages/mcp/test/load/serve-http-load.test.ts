// Load tests of serveHttp's refusals, on loopback only and bounded in time: requests go out in
// batches of 50, and every assertion is on counts, never on speed.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../../src/http/serve-http.js';
import type { McpHttpHandle } from '../../src/http/mcp-http-handle.js';
import { staticTokenAuthenticator } from '../../src/http/static-token-authenticator.js';
import { createNotesRegistry } from '../support/notes-registry.js';
import { INITIALIZE, rawPost, type RawResponse } from '../support/raw-http.js';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const handles: McpHttpHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
});

async function inBatches(total: number, send: (index: number) => Promise<RawResponse>): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  for (let start = 0; start < total; start += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, total - start) }, (_, offset) => send(start + offset)));
    for (const response of batch) statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  }
  return statuses;
}

const authenticate = staticTokenAuthenticator({ 'agent-token': { principal: 'agent:load', scopes: ['notes:read'] } });

describe('serveHttp under load', () => {
  it('answers 2,000 anonymous initialize attempts with 401 and opens no session', async () => {
    const handle = await serveHttp(createNotesRegistry().registry, { authenticate });
    handles.push(handle);
    const statuses = await inBatches(2000, () => rawPost(handle.url, INITIALIZE));
    expect(statuses).toEqual(new Map([[401, 2000]]));
    expect(handle.sessionCount).toBe(0);
  });

  it('refuses 1,000 sessions beyond the cap with 503, and memory stays flat', async () => {
    const handle = await serveHttp(createNotesRegistry().registry, {
      authenticate,
      maxSessions: 100,
      maxSessionsPerPrincipal: 1000,
      maxInitializePerMinute: 10_000,
    });
    handles.push(handle);
    const auth = { Authorization: 'Bearer agent-token' };
    // Warm-up: the code paths of a refusal are loaded before the baseline is taken.
    const before = heapAfterGc();
    expect(await inBatches(100, () => rawPost(handle.url, INITIALIZE, auth))).toEqual(new Map([[200, 100]]));
    expect(await inBatches(50, () => rawPost(handle.url, INITIALIZE, auth))).toEqual(new Map([[503, 50]]));
    const atCap = heapAfterGc();
    const perSession = Math.max(0, atCap - before) / 100;

    expect(await inBatches(1000, () => rawPost(handle.url, INITIALIZE, auth))).toEqual(new Map([[503, 1000]]));
    expect(handle.sessionCount).toBe(100);
    const grown = heapAfterGc() - atCap;
    // A thousand refused sessions leave nothing behind: far under what even 50 open sessions hold,
    // and under 4 MB in absolute terms (garbage-collector noise).
    expect(grown).toBeLessThan(Math.max(4 * 1024 * 1024, perSession * 50));
    expect(grown).toBeLessThan(16 * 1024 * 1024);
  });
});
