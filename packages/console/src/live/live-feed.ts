import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from '../security/security-headers.js';

/** Seconds between keep-alive comments on an open stream (proxies close silent connections). */
const HEARTBEAT_MS = 20_000;

/**
 * How long one stream stays open: the browser then reconnects, and the reconnection is
 * authenticated again, so a session that ended in another process stops receiving changes.
 */
const STREAM_MAX_AGE_MS = 15 * 60_000;

/** Answers whether the approver that opened a stream is still signed in. */
export type StreamCheck = () => Promise<boolean>;

/**
 * The open server-sent event streams, and a change signal sent to all of them. While at least one
 * stream is open, `poll` runs every `pollIntervalMs` (never two at once) and a changed answer is
 * broadcast too, so decisions made in another process show up without a reload.
 */
export class LiveFeed {
  readonly #clients = new Map<ServerResponse, StreamCheck>();
  readonly #poll: () => Promise<string>;
  readonly #pollIntervalMs: number;
  #timer: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  #fingerprint: string | null = null;
  #polling = false;
  #closed = false;
  #sequence = 0;

  /** A feed whose poll answers a fingerprint of what the pages show. */
  constructor(poll: () => Promise<string>, pollIntervalMs: number) {
    this.#poll = poll;
    this.#pollIntervalMs = pollIntervalMs;
  }

  /** The number of open streams. */
  get size(): number {
    return this.#clients.size;
  }

  /**
   * Opens a stream on `response` and keeps it until the client goes away, the feed closes, it is
   * 15 minutes old (the browser reconnects, authenticated again) or `stillSignedIn` answers false
   * when {@link LiveFeed.revalidate} asks. The stream carries the same security headers as the
   * pages (`Cache-Control: no-store` included).
   */
  open(response: ServerResponse, stillSignedIn: StreamCheck = async () => true): void {
    if (this.#closed) {
      response.writeHead(503, { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end('The console is closed.');
      return;
    }
    response.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    response.write('retry: 3000\n\n');
    this.#clients.set(response, stillSignedIn);
    // The first stream takes the baseline at once, so a change right after the page loaded counts.
    if (this.#clients.size === 1) void this.#check();
    const maxAge = setTimeout(() => response.end(), STREAM_MAX_AGE_MS);
    maxAge.unref();
    response.on('close', () => {
      clearTimeout(maxAge);
      this.#clients.delete(response);
      if (this.#clients.size === 0) this.#stopTimers();
    });
    this.#startTimers();
  }

  /**
   * Tells every open stream whose approver is still signed in that something changed; a stream
   * whose approver is not (a removed token, an ended session) ends instead, told nothing.
   */
  broadcast(): void {
    this.#sequence += 1;
    const event = `event: change\ndata: ${this.#sequence}\n\n`;
    for (const [client, stillSignedIn] of this.#clients) {
      void stillAllowed(stillSignedIn).then((allowed) => {
        if (!allowed) client.end();
        else if (this.#clients.has(client)) client.write(event);
      });
    }
  }

  /**
   * Asks every open stream's check again and ends the streams whose approver is no longer signed
   * in (after a sign-out, say); a check that throws ends its stream too.
   */
  async revalidate(): Promise<void> {
    await Promise.all(
      [...this.#clients].map(async ([client, stillSignedIn]) => {
        if (!(await stillAllowed(stillSignedIn))) client.end();
      }),
    );
  }

  /** Ends every stream and stops polling. */
  close(): void {
    this.#closed = true;
    this.#stopTimers();
    for (const client of this.#clients.keys()) client.end();
    this.#clients.clear();
  }

  #startTimers(): void {
    if (this.#timer === null) {
      this.#timer = setInterval(() => void this.#check(), this.#pollIntervalMs);
      this.#timer.unref();
    }
    if (this.#heartbeat === null) {
      this.#heartbeat = setInterval(() => {
        for (const client of this.#clients.keys()) client.write(': keep-alive\n\n');
      }, HEARTBEAT_MS);
      this.#heartbeat.unref();
    }
  }

  #stopTimers(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    if (this.#heartbeat !== null) clearInterval(this.#heartbeat);
    this.#timer = null;
    this.#heartbeat = null;
    this.#fingerprint = null;
  }

  async #check(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const fingerprint = await this.#poll();
      if (this.#fingerprint !== null && fingerprint !== this.#fingerprint) this.broadcast();
      this.#fingerprint = fingerprint;
    } catch {
      // A failing store is shown on the next page load; the stream stays open.
    } finally {
      this.#polling = false;
    }
  }
}

/** What `check` answers, false when it throws (fail closed). */
async function stillAllowed(check: StreamCheck): Promise<boolean> {
  try {
    return (await check()) === true;
  } catch {
    return false;
  }
}
