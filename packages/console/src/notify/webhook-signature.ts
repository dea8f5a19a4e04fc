import { createHmac, timingSafeEqual } from 'node:crypto';
import { MilpaError } from '@milpa/core';

/** The header holding the signing time, in whole seconds since the Unix epoch. */
export const WEBHOOK_TIMESTAMP_HEADER = 'X-Milpa-Timestamp';
/** The header holding the signature: `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Milpa-Signature';

const TIMESTAMP = /^[0-9]{1,12}$/;
const V1 = /^v1=([0-9a-f]{64})$/;

/**
 * `secret` as key bytes.
 * @throws MilpaError `INVALID_ARGUMENT` when it is not a string or bytes of at least 16 bytes.
 */
export function readWebhookSecret(secret: unknown, who: string): Buffer {
  if (typeof secret !== 'string' && !(secret instanceof Uint8Array))
    throw new MilpaError(`${who} needs a secret (a string or bytes).`, { code: 'INVALID_ARGUMENT' });
  const key = Buffer.from(secret);
  if (key.length < 16) throw new MilpaError(`${who} needs a secret of at least 16 bytes, got ${key.length}.`, { code: 'INVALID_ARGUMENT' });
  return key;
}

/** The `v1=<hex>` signature of `body` signed at `timestamp` (the header's text, in seconds) with `key`. */
export function signWebhookBody(key: Buffer, timestamp: string, body: string | Uint8Array): string {
  return `v1=${createHmac('sha256', key).update(`${timestamp}.`).update(body).digest('hex')}`;
}

/** What {@link verifyWebhookSignature} checks. */
export interface WebhookSignatureCheck {
  /** The secret shared with the sender (at least 16 bytes). */
  readonly secret: string | Uint8Array;
  /** The request body exactly as received (read it raw: parsing and re-serializing changes the bytes). */
  readonly body: string | Uint8Array;
  /** The `X-Milpa-Timestamp` header. */
  readonly timestamp: string | null | undefined;
  /** The `X-Milpa-Signature` header (several comma-separated `v1=` values are accepted, for key rotation). */
  readonly signature: string | null | undefined;
  /** How far the timestamp may be from now, in seconds; default 300. */
  readonly toleranceSeconds?: number;
  /** The current time in milliseconds; default `Date.now()`. */
  readonly now?: number;
}

/**
 * True when a webhook request was signed with `secret` over this exact body, no more than
 * `toleranceSeconds` ago or ahead (a replayed old request fails). The comparison takes the same
 * time whatever the signature's content.
 *
 * @throws MilpaError `INVALID_ARGUMENT` for a secret shorter than 16 bytes.
 * @example
 * const ok = verifyWebhookSignature({
 *   secret: process.env.MILPA_WEBHOOK_SECRET!,
 *   body: rawBody,
 *   timestamp: request.headers['x-milpa-timestamp'],
 *   signature: request.headers['x-milpa-signature'],
 * });
 * if (!ok) return response.writeHead(401).end();
 */
export function verifyWebhookSignature(check: WebhookSignatureCheck): boolean {
  const key = readWebhookSecret(check.secret, 'verifyWebhookSignature');
  const { timestamp, signature } = check;
  if (typeof timestamp !== 'string' || !TIMESTAMP.test(timestamp) || typeof signature !== 'string') return false;
  const tolerance = check.toleranceSeconds ?? 300;
  const now = (check.now ?? Date.now()) / 1000;
  const seconds = Number(timestamp);
  if (!(Math.abs(now - seconds) <= tolerance)) return false;
  const expected = Buffer.from(signWebhookBody(key, timestamp, check.body).slice(3), 'hex');
  let matched = false;
  for (const part of signature.split(',').slice(0, 8)) {
    const hex = V1.exec(part.trim())?.[1];
    if (hex === undefined) continue;
    // Every candidate is compared in full, so the time taken says nothing about which one matched.
    if (timingSafeEqual(Buffer.from(hex, 'hex'), expected)) matched = true;
  }
  return matched;
}
