import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { canonicalJson, isRecord } from '@milpa/core/kit';

/** How long a reviewed edit may be confirmed: 15 minutes. */
export const SEALED_EDIT_TTL_MS = 15 * 60_000;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed edit holds: the changes, and what they are bound to. */
export interface SealedEdit {
  /** The approval the changes are for. */
  readonly id: string;
  /** The approver who reviewed them; only they may confirm. */
  readonly principal: string;
  /** The fingerprint of the proposal the edit started from. */
  readonly base: string;
  /** When the confirmation stops being accepted, in milliseconds since the epoch. */
  readonly expiresAt: number;
  /** The held call's changes once granted (earlier approvers' included). */
  readonly changes: Readonly<Record<string, unknown>>;
  /** Approvers whose grants the edit sets aside (the approvals start over). */
  readonly resets: readonly string[];
}

/** Why {@link ProposalSeal.open} refused a token. */
export type SealRefusal = 'malformed' | 'tampered' | 'expired' | 'other_item' | 'other_principal';

/**
 * Keeps reviewed edits out of the approver's hands between the review and the grant, and names
 * proposals. Edits travel to the confirm form sealed (AES-256-GCM under a key derived with HKDF
 * from the console's secret), bound to the approval, the approver, the proposal they started from
 * and an expiry: the page never shows a secret that was typed, and a changed, replayed or
 * borrowed token is refused. Proposal fingerprints are keyed too (HMAC), so a fingerprint on a
 * page reveals nothing about a secret inside the proposal.
 */
export class ProposalSeal {
  readonly #encryptionKey: Buffer;
  readonly #fingerprintKey: Buffer;

  /** A seal keyed from `secret` (the console's `secret` option); null draws a random key. */
  constructor(secret: string | Uint8Array | null) {
    const material = secret === null ? randomBytes(32) : Buffer.from(secret);
    const salt = Buffer.from('milpa-console', 'utf8');
    this.#encryptionKey = Buffer.from(hkdfSync('sha256', material, salt, 'sealed-edit v1', 32));
    this.#fingerprintKey = Buffer.from(hkdfSync('sha256', material, salt, 'proposal-fingerprint v1', 32));
  }

  /** The fingerprint of approval `id` proposing `changes` (null: the arguments as held). */
  fingerprint(id: string, changes: Readonly<Record<string, unknown>> | null): string {
    const text = canonicalJson({ id, changes }) ?? '';
    return createHmac('sha256', this.#fingerprintKey).update(text).digest('base64url');
  }

  /** True when `given` is `expected` (compared in constant time). */
  sameFingerprint(expected: string, given: unknown): boolean {
    if (typeof given !== 'string') return false;
    const a = Buffer.from(expected);
    const b = Buffer.from(given);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** `edit` sealed into a token for a form field. */
  seal(edit: SealedEdit): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#encryptionKey, iv);
    cipher.setAAD(Buffer.from(VERSION));
    const body = Buffer.concat([cipher.update(JSON.stringify(edit), 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** The edit in `token` when it is intact, unexpired and bound to approval `id` and `principal`; else why not. */
  open(
    token: unknown,
    id: string,
    principal: string,
    now: number,
  ): { readonly ok: true; readonly edit: SealedEdit } | { readonly ok: false; readonly refusal: SealRefusal } {
    if (typeof token !== 'string' || !token.startsWith(`${VERSION}.`)) return { ok: false, refusal: 'malformed' };
    const raw = Buffer.from(token.slice(VERSION.length + 1), 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return { ok: false, refusal: 'malformed' };
    let text: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#encryptionKey, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(VERSION));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      text = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return { ok: false, refusal: 'tampered' };
    }
    const edit = readSealedEdit(text);
    if (edit === null) return { ok: false, refusal: 'tampered' };
    if (edit.id !== id) return { ok: false, refusal: 'other_item' };
    if (edit.principal !== principal) return { ok: false, refusal: 'other_principal' };
    if (!(now < edit.expiresAt)) return { ok: false, refusal: 'expired' };
    return { ok: true, edit };
  }
}

function readSealedEdit(text: string): SealedEdit | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  const { id, principal, base, expiresAt, changes, resets } = value;
  if (typeof id !== 'string' || typeof principal !== 'string' || typeof base !== 'string' || typeof expiresAt !== 'number') return null;
  if (!isRecord(changes) || !Array.isArray(resets) || !resets.every((name) => typeof name === 'string')) return null;
  return { id, principal, base, expiresAt, changes, resets };
}
