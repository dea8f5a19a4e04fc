import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VerificationContext, VerificationRequest } from '@milpa/core';
import { HumanVerifier, InMemoryVerificationStore } from '@milpa/verification';
import { describe, expect, it } from 'vitest';
import { createApprovalConsole } from '../src/index.js';
import { send } from './support/console-fixture.js';
import { PageClient } from './support/page-client.js';

const authenticate = () => ({ principal: 'user:ana' });

/** Opens an approval request the way verifierApprovalGate does, in "another process" (its own verifier). */
async function openElsewhere(verifier: HumanVerifier, id: string, tool: string): Promise<void> {
  const payload = { tool, arguments: { id: 1 }, channel: 'mcp', run_id: null, request_id: `req-${id}` };
  await verifier.verify(
    new VerificationRequest(`approval:${tool}`, 'single', payload, 'agent:other', id),
    new VerificationContext('agent:other'),
  );
}

describe('createApprovalConsole options', () => {
  it('refuses to start without authenticate, without a verifier or store, or with a bad basePath or poll interval', () => {
    const verifier = new HumanVerifier();
    expect(() => createApprovalConsole({ verifier } as never)).toThrow('needs an authenticate(request) function');
    expect(() => createApprovalConsole({ authenticate })).toThrow('needs a verifier (or a verification store)');
    expect(() => createApprovalConsole({ verifier, authenticate, basePath: 'approvals' })).toThrow(
      "basePath must be a path starting with '/'",
    );
    expect(() => createApprovalConsole({ verifier, authenticate, pollIntervalMs: 0 })).toThrow('pollIntervalMs must be at least 50');
  });

  it(
    'shows requests opened by another process on a shared store ' + 'through listRequestIds, and streams their changes by polling',
    async () => {
      const store = new InMemoryVerificationStore();
      const elsewhere = new HumanVerifier({ store });
      const opened: string[] = [];
      const handler = createApprovalConsole({ store, authenticate, listRequestIds: () => opened, pollIntervalMs: 100 });
      const server = createServer(handler);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      try {
        await openElsewhere(elsewhere, 'a1', 'delete_note');
        opened.push('a1');
        // A verification request that is not an approval stays out of the console.
        await elsewhere.verify(VerificationRequest.withGeneratedId('gate:report.publish', 'single', {}, 'agent:other'));
        const client = new PageClient(url, null);
        const list = await client.get('/');
        expect(list.body).toContain('1 call waits for approval');
        expect(list.body).not.toContain('report.publish');

        const stream = await new Promise<IncomingMessage>((resolve, reject) => {
          const outgoing = request(`${url}/events`, resolve);
          outgoing.on('error', reject);
          outgoing.end();
        });
        stream.setEncoding('utf8');
        const changed = new Promise<void>((resolve) => stream.on('data', (chunk: string) => chunk.includes('event: change') && resolve()));
        // The decision happens in the other process: no dispatcher tells this console; the poll does.
        await elsewhere.grant(VerificationRequest.forResolution('a1'), 'user:luis');
        await changed;
        stream.destroy();
        const history = await client.get('/history');
        expect(history.body).toContain('Granted');
        expect(history.body).toContain('user:luis');
      } finally {
        handler.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
  );

  it('shows a tracked request and answers a plain 503 without details when the store fails', async () => {
    const store = new InMemoryVerificationStore();
    const verifier = new HumanVerifier({ store });
    await openElsewhere(verifier, 'b1', 'print_note');
    let failing = false;
    const flaky = {
      open: (record: never) => store.open(record),
      decide: (id: string, decision: never) => store.decide(id, decision),
      get: (id: string) => {
        if (failing) throw new Error('redis://secret-host:6379 refused');
        return store.get(id);
      },
    };
    const handler = createApprovalConsole({ store: flaky, authenticate });
    handler.track('b1');
    const server = createServer(handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      expect((await send(`${url}/`)).body).toContain('print_note');
      failing = true;
      const answer = await send(`${url}/`);
      expect(answer.status).toBe(503);
      expect(answer.body).toBe('The approvals store did not answer; nothing was decided. Try again.');
    } finally {
      handler.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
