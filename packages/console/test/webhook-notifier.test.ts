import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  WebhookDeliveryError,
  verifyWebhookSignature,
  webhookNotifier,
  type ApprovalNotification,
  type WebhookNotifierOptions,
} from '../src/index.js';
import { AGENT, TOKENS, holdCall, startConsoleFixture } from './support/console-fixture.js';
import { PageClient } from './support/page-client.js';

const SECRET = 'whsec-0123456789abcdef';
const MARKER = 'zq-webhook-marker-5512';
/** Small retry delays so the tests stay fast, but no deadline a loaded machine could miss. */
const FAST = { retryDelayMs: 5, maxRetryDelayMs: 50 } as const;

/** One request the receiver got. */
interface Received {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

/** What the receiver does with a request: answer `status` (with `headers`) or never answer. */
type Reply = { readonly status: number; readonly headers?: Record<string, string> } | 'hang';

/** A local HTTP receiver answering each request with the next reply (the last one repeats). */
class Receiver {
  readonly received: Received[] = [];
  readonly #server: Server;
  readonly #replies: Reply[];
  readonly #hanging: ServerResponse[] = [];

  private constructor(replies: Reply[]) {
    this.#replies = replies;
    this.#server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const reply = this.#replies[Math.min(this.received.length, this.#replies.length) - 1] ?? { status: 200 };
        if (reply === 'hang') this.#hanging.push(response);
        else response.writeHead(reply.status, reply.headers ?? {}).end('ok');
      });
    });
  }

  static async start(...replies: Reply[]): Promise<Receiver> {
    const receiver = new Receiver(replies);
    await new Promise<void>((resolve) => receiver.#server.listen(0, '127.0.0.1', resolve));
    receivers.push(receiver);
    return receiver;
  }

  /** The address, with a secret-looking path like a Slack webhook's. */
  get url(): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/services/T000/B000/secret-path-xyz`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

const receivers: Receiver[] = [];

afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

function notification(overrides: Partial<ApprovalNotification> = {}): ApprovalNotification {
  return {
    kind: 'opened',
    approvalId: 'appr-1',
    tool: 'delete_note',
    requester: AGENT,
    policy: 'dual',
    approvals: 0,
    required: 2,
    decidedBy: null,
    reason: null,
    at: new Date('2026-01-02T03:04:05.000Z'),
    url: 'https://ops.example.com/approvals/approvals/appr-1',
    ...overrides,
  };
}

function notifier(receiver: Receiver, options: Partial<WebhookNotifierOptions> = {}) {
  return webhookNotifier({ url: receiver.url, secret: SECRET, ...FAST, ...options });
}

function verifies(received: Received | undefined, secret: string = SECRET): boolean {
  return verifyWebhookSignature({
    secret,
    body: received?.body ?? '',
    timestamp: received?.headers['x-milpa-timestamp'] as string | undefined,
    signature: received?.headers['x-milpa-signature'] as string | undefined,
  });
}

describe('webhookNotifier', () => {
  describe('delivery', () => {
    it('posts a signed Slack-shaped body for a held call, without its arguments, linking to the item', async () => {
      const receiver = await Receiver.start({ status: 200 });
      const fixture = await startConsoleFixture({
        notify: webhookNotifier({ url: receiver.url, secret: SECRET, ...FAST }),
        publicUrl: 'https://ops.example.com/approvals/',
      });
      try {
        const id = await holdCall(fixture, 'print_note', { id: MARKER, copies: 4, title: MARKER, api_key: `${MARKER}-key` });
        const client = new PageClient(fixture.url, TOKENS.ana);
        await client.get(`/approvals/approvals/${id}`);
        await client.post(`/approvals/approvals/${id}/grant`, { _csrf: client.csrf, reason: 'ok' });
        await vi.waitFor(() => expect(receiver.received).toHaveLength(2), { timeout: 10_000, interval: 10 });
      } finally {
        await fixture.close();
      }
      const [opened, granted] = receiver.received;
      expect(opened?.headers['content-type']).toBe('application/json');
      expect(verifies(opened)).toBe(true);
      expect(verifies(granted)).toBe(true);
      for (const received of receiver.received) {
        expect(received.body).not.toContain(MARKER);
        expect(received.body).not.toContain('REDACTED');
      }
      const body = JSON.parse(opened!.body) as { text: unknown; milpa: Record<string, unknown> };
      expect(Object.keys(body)).toEqual(['text', 'milpa']);
      expect(typeof body.text).toBe('string');
      const link = `https://ops.example.com/approvals/approvals/${body.milpa['approval_id'] as string}`;
      expect(body.text).toBe(
        `Approval needed: \`print_note\` requested by ${AGENT} (single rule, 0 of 1 approvals). <${link}|Open in the approvals console>`,
      );
      expect(body.milpa).toEqual({
        kind: 'opened',
        approval_id: expect.any(String),
        tool: 'print_note',
        requester: AGENT,
        policy: 'single',
        approvals: 0,
        required: 1,
        decided_by: null,
        reason: null,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        url: link,
      });
      expect(JSON.parse(granted!.body).milpa).toMatchObject({ kind: 'granted', decided_by: 'user:ana', reason: 'ok', approvals: 1 });
    });

    it('escapes names and reasons so a notification cannot mention @channel or forge a link', async () => {
      const receiver = await Receiver.start({ status: 200 });
      await notifier(receiver)(
        notification({
          kind: 'rejected',
          requester: '<!channel>',
          decidedBy: 'user:<@U123>',
          reason: 'see <https://evil.example|docs> & more',
        }),
      );
      const text = (JSON.parse(receiver.received[0]!.body) as { text: string }).text;
      expect(text).toContain('&lt;!channel&gt;');
      expect(text).toContain('user:&lt;@U123&gt;');
      expect(text).toContain('see &lt;https://evil.example|docs&gt; &amp; more');
      expect(text.match(/</g)).toHaveLength(1); // only the console's own link
    });

    it('leaves the link out without a url', async () => {
      const receiver = await Receiver.start({ status: 204 });
      await notifier(receiver)(notification({ url: null }));
      const body = JSON.parse(receiver.received[0]!.body) as { text: string; milpa: { url: unknown } };
      expect(body.text).not.toContain('<');
      expect(body.milpa.url).toBeNull();
    });
  });

  describe('retries', () => {
    it('retries 503 twice and stops at the 200: three attempts, each signed afresh, one delivery id', async () => {
      const receiver = await Receiver.start({ status: 503 }, { status: 503 }, { status: 200 });
      await notifier(receiver, { maxAttempts: 5 })(notification());
      expect(receiver.received).toHaveLength(3);
      expect(receiver.received.every((received) => verifies(received))).toBe(true);
      expect(new Set(receiver.received.map((received) => received.headers['x-milpa-delivery'])).size).toBe(1);
    });

    it('gives up after maxAttempts 5xx answers with the last status', async () => {
      const receiver = await Receiver.start({ status: 502 });
      await expect(notifier(receiver, { maxAttempts: 2 })(notification())).rejects.toMatchObject({ status: 502, attempts: 2 });
      expect(receiver.received).toHaveLength(2);
    });

    it('reads a Retry-After given as an HTTP date', async () => {
      const later = new Date(Date.now() + 3500).toUTCString();
      const receiver = await Receiver.start({ status: 429, headers: { 'Retry-After': later } }, { status: 200 });
      await notifier(receiver, { retryDelayMs: 1, maxRetryDelayMs: 5000 })(notification());
      expect(receiver.received).toHaveLength(2);
      // HTTP dates have whole seconds: 2.5 s at least are left before that date when the 429 arrives.
      expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(1000);
    });

    it('does not retry a 400 and rejects with its status, naming only the origin', async () => {
      const receiver = await Receiver.start({ status: 400 });
      const error = await notifier(receiver)(notification()).catch((caught: unknown) => caught);
      expect(receiver.received).toHaveLength(1);
      expect(error).toBeInstanceOf(WebhookDeliveryError);
      expect(error).toMatchObject({ code: 'WEBHOOK_DELIVERY_FAILED', status: 400, attempts: 1 });
      expect((error as Error).message).not.toContain('secret-path');
    });

    it('does not follow a redirect (the signed body goes nowhere else)', async () => {
      const elsewhere = await Receiver.start({ status: 200 });
      const receiver = await Receiver.start({ status: 307, headers: { Location: elsewhere.url } });
      await expect(notifier(receiver)(notification())).rejects.toMatchObject({ status: 307, attempts: 1 });
      expect(elsewhere.received).toHaveLength(0);
    });

    it('waits what Retry-After asks on a 429 before trying again', async () => {
      const receiver = await Receiver.start({ status: 429, headers: { 'Retry-After': '1' } }, { status: 200 });
      await notifier(receiver, { retryDelayMs: 1, maxRetryDelayMs: 5000 })(notification());
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1]!.at - receiver.received[0]!.at).toBeGreaterThanOrEqual(950);
    });

    it('caps a long Retry-After at maxRetryDelayMs', async () => {
      const receiver = await Receiver.start({ status: 429, headers: { 'Retry-After': '3600' } }, { status: 200 });
      const started = Date.now();
      await notifier(receiver, { maxRetryDelayMs: 20 })(notification());
      expect(receiver.received).toHaveLength(2);
      expect(Date.now() - started).toBeLessThan(60_000);
    });

    it('times out an attempt that gets no answer and retries it', async () => {
      const receiver = await Receiver.start('hang', { status: 200 });
      await notifier(receiver, { timeoutMs: 1000 })(notification());
      expect(receiver.received).toHaveLength(2);
    });

    it('gives up after maxAttempts timeouts with no status', async () => {
      const receiver = await Receiver.start('hang');
      const error = await notifier(receiver, { timeoutMs: 100, maxAttempts: 3 })(notification()).catch((caught: unknown) => caught);
      expect(receiver.received).toHaveLength(3);
      expect(error).toMatchObject({ code: 'WEBHOOK_DELIVERY_FAILED', status: null, attempts: 3 });
    });

    it('retries network errors up to maxAttempts', async () => {
      const receiver = await Receiver.start({ status: 200 });
      const url = receiver.url;
      await receiver.close();
      let calls = 0;
      const counting: typeof fetch = (input, init) => {
        calls += 1;
        return fetch(input, init);
      };
      await expect(
        webhookNotifier({ url, secret: SECRET, ...FAST, maxAttempts: 3, fetch: counting })(notification()),
      ).rejects.toMatchObject({
        attempts: 3,
        status: null,
      });
      expect(calls).toBe(3);
    });
  });

  describe('options', () => {
    it('refuses a url that is not http(s), a short secret and out-of-range counts', () => {
      const good = { url: 'https://hooks.example.com/x', secret: SECRET };
      for (const options of [
        { ...good, url: 'ftp://hooks.example.com/x' },
        { ...good, url: 'file:///etc/passwd' },
        { ...good, url: 'hooks.example.com/x' },
        { ...good, secret: '0123456789abcde' },
        { ...good, secret: undefined as never },
        { ...good, maxAttempts: 0 },
        { ...good, maxAttempts: 11 },
        { ...good, timeoutMs: 0 },
        { ...good, retryDelayMs: -1 },
      ]) {
        expect(() => webhookNotifier(options)).toThrowError(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
      }
      expect(webhookNotifier({ ...good, secret: new Uint8Array(16) })).toBeTypeOf('function');
    });
  });
});

describe('verifyWebhookSignature', () => {
  async function signedRequest(): Promise<Received> {
    const receiver = await Receiver.start({ status: 200 });
    await notifier(receiver)(notification());
    return receiver.received[0]!;
  }

  it('accepts the signed request and refuses a changed body, another secret or a missing header', async () => {
    const received = await signedRequest();
    expect(verifies(received)).toBe(true);
    expect(verifies({ ...received, body: received.body.replace('delete_note', 'delete_notf') })).toBe(false);
    expect(verifies(received, 'another-secret-0123456789')).toBe(false);
    expect(verifies({ ...received, headers: { ...received.headers, 'x-milpa-signature': undefined } })).toBe(false);
    expect(verifies({ ...received, headers: { ...received.headers, 'x-milpa-timestamp': undefined } })).toBe(false);
  });

  it('refuses a replay outside the tolerance and a timestamp moved to fit it', async () => {
    const received = await signedRequest();
    const check = {
      secret: SECRET,
      body: received.body,
      timestamp: received.headers['x-milpa-timestamp'] as string,
      signature: received.headers['x-milpa-signature'] as string,
    };
    expect(verifyWebhookSignature({ ...check, now: Date.now() + 301_000 })).toBe(false);
    expect(verifyWebhookSignature({ ...check, now: Date.now() + 600_000, toleranceSeconds: 900 })).toBe(true);
    expect(verifyWebhookSignature({ ...check, timestamp: String(Math.floor(Date.now() / 1000) + 1) })).toBe(false);
    expect(verifyWebhookSignature({ ...check, timestamp: `0${check.timestamp}` })).toBe(false);
  });

  it('refuses malformed signatures and accepts one valid value among several (key rotation)', async () => {
    const received = await signedRequest();
    const signature = received.headers['x-milpa-signature'] as string;
    const check = { secret: SECRET, body: received.body, timestamp: received.headers['x-milpa-timestamp'] as string };
    expect(signature).toMatch(/^v1=[0-9a-f]{64}$/);
    for (const forged of ['', 'v1=', signature.slice(0, -2), `${signature}00`, signature.replace('v1=', 'v0='), signature.toUpperCase()])
      expect(verifyWebhookSignature({ ...check, signature: forged })).toBe(false);
    expect(verifyWebhookSignature({ ...check, signature: `v1=${'0'.repeat(64)}, ${signature}` })).toBe(true);
  });

  it('refuses a secret shorter than 16 bytes', () => {
    expect(() => verifyWebhookSignature({ secret: 'short', body: '', timestamp: '1', signature: 'v1=00' })).toThrowError(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
