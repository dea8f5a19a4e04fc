import { describe, expect, it } from 'vitest';
import { ProposalSeal, type SealedEdit } from './proposal-seal.js';

const KEY = 'a-console-secret-of-32-characters!';
const edit: SealedEdit = { id: 'a1', principal: 'user:ana', base: 'fp', expiresAt: 2_000, changes: { copies: 3 }, resets: [] };

describe('ProposalSeal', () => {
  describe('open', () => {
    it('returns the sealed edit for its item and approver before it expires', () => {
      const seal = new ProposalSeal(KEY);
      expect(seal.open(seal.seal(edit), 'a1', 'user:ana', 1_999)).toEqual({ ok: true, edit });
    });

    it('refuses another item, another approver, an expired token and one sealed under another key', () => {
      const seal = new ProposalSeal(KEY);
      const token = seal.seal(edit);
      expect(seal.open(token, 'a2', 'user:ana', 0)).toEqual({ ok: false, refusal: 'other_item' });
      expect(seal.open(token, 'a1', 'user:luis', 0)).toEqual({ ok: false, refusal: 'other_principal' });
      expect(seal.open(token, 'a1', 'user:ana', 2_000)).toEqual({ ok: false, refusal: 'expired' });
      expect(new ProposalSeal('another-secret-of-32-characters!!').open(token, 'a1', 'user:ana', 0)).toEqual({
        ok: false,
        refusal: 'tampered',
      });
      expect(new ProposalSeal(null).open(token, 'a1', 'user:ana', 0)).toEqual({ ok: false, refusal: 'tampered' });
    });

    it('refuses every changed byte of a token and anything that is not one', () => {
      const seal = new ProposalSeal(KEY);
      const token = seal.seal(edit);
      const raw = Buffer.from(token.slice(3), 'base64url');
      for (let index = 0; index < raw.length; index += 1) {
        const changed = Buffer.from(raw);
        changed[index] = (changed[index] ?? 0) ^ 1;
        expect(seal.open(`v1.${changed.toString('base64url')}`, 'a1', 'user:ana', 0).ok).toBe(false);
      }
      for (const junk of [undefined, 42, '', 'v1.', 'v2.abc', `v1.${'A'.repeat(40)}`]) {
        expect(seal.open(junk, 'a1', 'user:ana', 0).ok).toBe(false);
      }
    });

    it('keeps the sealed changes unreadable in the token', () => {
      const seal = new ProposalSeal(KEY);
      const token = seal.seal({ ...edit, changes: { api_key: 'plain-secret-value' } });
      expect(Buffer.from(token.slice(3), 'base64url').toString('latin1')).not.toContain('plain-secret-value');
    });
  });

  describe('fingerprint', () => {
    it('names an item and its changes whatever their key order, differently for any other proposal or key', () => {
      const seal = new ProposalSeal(KEY);
      const named = seal.fingerprint('a1', { a: 1, b: 2 });
      expect(seal.fingerprint('a1', { b: 2, a: 1 })).toBe(named);
      expect(seal.fingerprint('a1', { a: 1, b: 3 })).not.toBe(named);
      expect(seal.fingerprint('a2', { a: 1, b: 2 })).not.toBe(named);
      expect(seal.fingerprint('a1', null)).not.toBe(seal.fingerprint('a1', {}));
      expect(new ProposalSeal(null).fingerprint('a1', { a: 1, b: 2 })).not.toBe(named);
      expect(seal.sameFingerprint(named, named)).toBe(true);
      expect(seal.sameFingerprint(named, `${named}x`)).toBe(false);
      expect(seal.sameFingerprint(named, null)).toBe(false);
    });
  });
});
