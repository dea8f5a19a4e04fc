import { request } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../cli/cli-io.js';
import { serveDemoConsole } from './serve-demo-console.js';

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

describe('serveDemoConsole', () => {
  it("prints the address and tokens, shows the agent's held calls, and the agent resumes a granted one once", async () => {
    let output = '';
    const io: CliIo = { stdout: (text) => void (output += text), stderr: () => undefined, stdoutIsTTY: false, env: {} };
    let stop!: () => void;
    const stopSignal = new Promise<void>((resolve) => (stop = resolve));
    let url = '';
    let tokens: Readonly<Record<string, string>> = {};
    const served = serveDemoConsole(
      { port: 0, stopSignal, resumeEveryMs: 50, onListening: (address, issued) => ((url = address), (tokens = issued)) },
      io,
    );
    try {
      await vi.waitFor(() => expect(output).toContain('Press Ctrl+C to stop.'), { timeout: 30_000, interval: 50 });
      expect(output).toMatch(/^Approvals console: http:\/\/127\.0\.0\.1:\d+\/$/m);
      for (const principal of ['user:ana', 'user:luis', 'agent:assistant'])
        expect(output).toContain(`${principal.padEnd(16)} ${tokens[principal]}`);

      const ana = { Authorization: `Bearer ${tokens['user:ana']}` };
      const list = await send(url, 'GET', ana);
      expect(list.status).toBe(200);
      expect(list.body).toContain('3 calls wait for approval');
      expect(list.body).toContain('delete_note');
      expect(list.body).toContain('dual: 2 approvals');

      const held = /agent:assistant called create_note: waiting for approval \(([0-9a-f]+)\)/.exec(output)?.[1];
      expect(held).toBeDefined();
      const detail = await send(`${url}approvals/${held}`, 'GET', ana);
      const cookie = (detail.headers['set-cookie'] as string[])[0]!.split(';')[0]!;
      const csrf = /name="_csrf" value="([^"]+)"/.exec(detail.body)![1]!;
      const granted = await send(
        `${url}approvals/${held}/grant`,
        'POST',
        { ...ana, Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({ _csrf: csrf }).toString(),
      );
      expect(granted.status).toBe(303);
      await vi.waitFor(() => expect(output).toContain('agent:assistant resumed create_note: ran: Note #6 created'), {
        timeout: 30_000,
        interval: 50,
      });
      expect(output.match(/resumed create_note/g)).toHaveLength(1);
      // The console shows how the resumed call ended.
      const after = await send(`${url}approvals/${held}`, 'GET', ana);
      expect(after.body).toMatch(/<dd class="call-outcome">Ran at <time[^>]*>[^<]+<\/time> — succeeded\.<\/dd>/);
    } finally {
      stop();
      await served;
    }
  }, 120_000);
});
