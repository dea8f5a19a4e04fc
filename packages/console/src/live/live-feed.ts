import type { ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from '../security/security-headers.js';

/** Seconds between keep-alive comments on an open stream (proxies close silent connections). */
const HEARTBEAT_MS = 20_000;

/**
 * The open server-sent event streams, and a change signal sent to all of them. While at least one
 * stream is open, `poll` runs every `pollIntervalMs` (never two at once) and a changed answer is
 * broadcast too, so decisions made in another process show up without a reload.
 */
export class LiveFeed {
  readonly #clients = new Set<ServerResponse>();
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
   * Opens a stream on `response` and keeps it until the client goes away or the feed closes. The
   * stream carries the same security headers as the pages (`Cache-Control: no-store` included).
   */
  open(response: ServerResponse): void {
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
    this.#clients.add(response);
    // The first stream takes the baseline at once, so a change right after the page loaded counts.
    if (this.#clients.size === 1) void this.#check();
    response.on('close', () => {
      this.#clients.delete(response);
      if (this.#clients.size === 0) this.#stopTimers();
    });
    this.#startTimers();
  }

  /** Tells every open stream that something changed. */
  broadcast(): void {
    this.#sequence += 1;
    for (const client of this.#clients) client.write(`event: change\ndata: ${this.#sequence}\n\n`);
  }

  /** Ends every stream and stops polling. */
  close(): void {
    this.#closed = true;
    this.#stopTimers();
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }

  #startTimers(): void {
    if (this.#timer === null) {
      this.#timer = setInterval(() => void this.#check(), this.#pollIntervalMs);
      this.#timer.unref();
    }
    if (this.#heartbeat === null) {
      this.#heartbeat = setInterval(() => {
        for (const client of this.#clients) client.write(': keep-alive\n\n');
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
