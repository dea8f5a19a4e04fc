import { randomUUID } from 'node:crypto';
import { MilpaError } from '@milpa/core';
import type { ApprovalNotification } from './approval-notification.js';
import { describeNotification, notificationToJson } from './describe-notification.js';
import { WebhookDeliveryError } from './webhook-delivery-error.js';
import { WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER, readWebhookSecret, signWebhookBody } from './webhook-signature.js';

/** Options of {@link webhookNotifier}. */
export interface WebhookNotifierOptions {
  /** Where to POST (an `http:` or `https:` URL, e.g. a Slack incoming webhook). */
  readonly url: string;
  /** The signing key shared with the receiver, at least 16 bytes. */
  readonly secret: string | Uint8Array;
  /** Requests sent at most per notification (1 to 10); default 4. */
  readonly maxAttempts?: number;
  /** How long one request may take until the answer's headers arrive, in ms; default 10,000. */
  readonly timeoutMs?: number;
  /** The first retry's delay in ms, doubled on each further retry (with jitter); default 1,000. */
  readonly retryDelayMs?: number;
  /** The longest wait between attempts in ms, also the cap on a `Retry-After`; default 30,000. */
  readonly maxRetryDelayMs?: number;
  /** The `fetch` to send with; default the global one. */
  readonly fetch?: typeof fetch;
}

const WHO = 'webhookNotifier';

function invalid(message: string): MilpaError {
  return new MilpaError(`${WHO} ${message}`, { code: 'INVALID_ARGUMENT' });
}

function readUrl(value: unknown): URL {
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw invalid('needs an absolute http or https url.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid(`needs an http or https url, got the scheme '${url.protocol}'.`);
  return url;
}

function readCount(value: number | undefined, fallback: number, name: string, min: number, max: number): number {
  const count = value ?? fallback;
  if (!(typeof count === 'number' && Number.isFinite(count) && count >= min && count <= max)) {
    throw invalid(`${name} must be a number from ${min} to ${max}, got ${String(value)}.`);
  }
  return count;
}

/** The wait a `Retry-After` header asks for, in ms, or null when there is none or it is unreadable. */
function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^[0-9]{1,9}$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * A notifier that POSTs each notification as JSON a Slack incoming webhook accepts: a top-level
 * `text` (a short message with the link) and the structured fields under `milpa` (snake_case, no
 * arguments). Every request is signed: `X-Milpa-Timestamp` (seconds) and `X-Milpa-Signature:
 * v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`, checked by receivers with
 * `verifyWebhookSignature`; `X-Milpa-Delivery` stays the same across retries of one notification.
 *
 * Retries network errors, timeouts, 429 (waiting what `Retry-After` asks, up to
 * `maxRetryDelayMs`) and 5xx, with exponential backoff and jitter, up to `maxAttempts` requests;
 * other answers are not retried (redirects are not followed). Rejects with a
 * {@link WebhookDeliveryError} when the notification was not delivered.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a url that is not http(s), a secret under 16 bytes, or an
 *   out-of-range option.
 * @example
 * const approvals = createApprovalConsole({
 *   verifier, dispatcher, authenticate,
 *   publicUrl: 'https://ops.example.com/approvals/',
 *   notify: webhookNotifier({ url: process.env.SLACK_WEBHOOK_URL!, secret: process.env.MILPA_WEBHOOK_SECRET! }),
 *   onNotifyError: (error) => logger.warn('approval notification failed', { error }),
 * });
 */
export function webhookNotifier(options: WebhookNotifierOptions): (notification: ApprovalNotification) => Promise<void> {
  const url = readUrl(options?.url);
  const key = readWebhookSecret(options.secret, WHO);
  const maxAttempts = Math.floor(readCount(options.maxAttempts, 4, 'maxAttempts', 1, 10));
  const timeoutMs = readCount(options.timeoutMs, 10_000, 'timeoutMs', 1, 600_000);
  const retryDelayMs = readCount(options.retryDelayMs, 1000, 'retryDelayMs', 0, 600_000);
  const maxRetryDelayMs = readCount(options.maxRetryDelayMs, 30_000, 'maxRetryDelayMs', 0, 3_600_000);
  const send = options.fetch ?? globalThis.fetch;
  if (typeof send !== 'function') throw invalid('needs a fetch function (none is global here).');
  const target = url.toString();

  return async (notification: ApprovalNotification): Promise<void> => {
    const body = JSON.stringify({ text: describeNotification(notification), milpa: notificationToJson(notification) });
    const delivery = randomUUID();
    let status: number | null = null;
    let cause: unknown;
    for (let attempt = 1; ; attempt += 1) {
      const timestamp = String(Math.floor(Date.now() / 1000));
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), timeoutMs);
      let wait: number | null = null;
      try {
        const response = await send(target, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'User-Agent': 'milpa-console-webhook',
            'X-Milpa-Delivery': delivery,
            [WEBHOOK_TIMESTAMP_HEADER]: timestamp,
            [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(key, timestamp, body),
          },
          body,
          redirect: 'manual',
          signal: controller.signal,
        });
        status = response.status;
        cause = undefined;
        // The answer's body is never read: cancel it so the connection is freed.
        await response.body?.cancel().catch(() => undefined);
        if (status >= 200 && status < 300) return;
        if (status !== 429 && status < 500) {
          throw new WebhookDeliveryError(`The webhook at ${url.origin} refused the notification with HTTP ${status}; not retried.`, {
            attempts: attempt,
            status,
          });
        }
        wait = retryAfterMs(response.headers.get('retry-after'), Date.now());
      } catch (error) {
        if (error instanceof WebhookDeliveryError) throw error;
        status = null;
        cause = error;
      } finally {
        clearTimeout(timer);
      }
      if (attempt >= maxAttempts) {
        const last = status === null ? 'no answer (network error or timeout)' : `HTTP ${status}`;
        throw new WebhookDeliveryError(`The webhook at ${url.origin} did not take the notification after ${attempt} attempts: ${last}.`, {
          attempts: attempt,
          status,
          cause,
        });
      }
      const backoff = Math.min(maxRetryDelayMs, retryDelayMs * 2 ** (attempt - 1));
      // Half fixed, half random: receivers that failed together are not hit again together.
      await sleep(Math.min(maxRetryDelayMs, wait ?? backoff / 2 + Math.random() * (backoff / 2)));
    }
  };
}
