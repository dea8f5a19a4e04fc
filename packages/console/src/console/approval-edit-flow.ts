import type { ServerResponse } from 'node:http';
import { canonicalJson } from '@milpa/core/kit';
import type { ApprovalEdits } from '../edits/approval-edits.js';
import type { ProposalSeal } from '../edits/proposal-seal.js';
import { SEALED_EDIT_TTL_MS } from '../edits/proposal-seal.js';
import type { CsrfGuard } from '../security/csrf-guard.js';
import { approvalPath } from '../views/render-decision-forms.js';
import { renderEditPage } from '../views/render-edit-page.js';
import { renderReviewPage, type ReviewRow } from '../views/render-review-page.js';
import type { ConsoleIdentity } from './approval-console-options.js';
import type { ApprovalItem } from './approval-item.js';
import type { ApprovalTracker } from './approval-tracker.js';
import { notFoundPage, type ConsolePage } from './console-page.js';
import type { ConsoleResponder } from './console-responder.js';
import { describeDecided } from './decision-refusals.js';
import type { DetailPages } from './detail-pages.js';
import { revealNameAsText } from '../views/reveal-text.js';

/** What the approver is told when the proposal changed under them. */
export const PROPOSAL_CHANGED =
  'Someone changed the proposed arguments since you opened this page; nothing was recorded. Check the proposal shown now.';

/** What an {@link ApprovalEditFlow} works with. */
export interface ApprovalEditFlowSettings {
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** Reads the item being edited. */
  readonly tracker: ApprovalTracker;
  /** Which fields may be edited, and reads edit forms. */
  readonly edits: ApprovalEdits;
  /** Seals reviewed edits and names proposals. */
  readonly seal: ProposalSeal;
  /** Signs the forms' CSRF tokens. */
  readonly csrf: CsrfGuard;
  /** Builds the detail page a refusal is answered with. */
  readonly pages: DetailPages;
  /** Writes the answers. */
  readonly responder: ConsoleResponder;
}

/** The approvers whose grants stop counting when `changes` are granted on `item` by `principal`. */
export function resetsOf(item: ApprovalItem, changes: Readonly<Record<string, unknown>> | null, principal: string): string[] {
  if (changes === null || canonicalJson(changes) === canonicalJson(item.changes)) return [];
  return item.approvals.map((approval) => approval.principal).filter((name) => name !== principal);
}

/**
 * The explicit edit step before a grant: `GET …/edit` shows the editable fields; `POST …/review`
 * reads them, checks them against the tool's schema and answers the changes as a diff with a
 * confirm form that carries them sealed (bound to the item, the approver, the proposal the edit
 * started from and an expiry). Nothing is recorded until the confirm form is posted to `…/grant`.
 */
export class ApprovalEditFlow {
  readonly #settings: ApprovalEditFlowSettings;

  /** A flow working with `settings`. */
  constructor(settings: ApprovalEditFlowSettings) {
    this.#settings = settings;
  }

  /** Answers the edit page of approval `id` (GET). */
  async showEdit(
    id: string,
    response: ServerResponse,
    identity: ConsoleIdentity,
    nonce: string,
    cookies: readonly string[],
  ): Promise<void> {
    const { tracker, responder, seal } = this.#settings;
    const item = await tracker.loadItem(id);
    const closed = await this.#closedPage(item, identity, nonce);
    if (closed !== null) return responder.sendPage(response, closed, identity, nonce, cookies);
    const open = item!;
    const page = this.#editPage(open, identity, nonce, 200, seal.fingerprint(open.id, open.changes), new Map(), null, new Map());
    responder.sendPage(response, page, identity, nonce, cookies);
  }

  /** Reads the edit form `fields` of approval `id` (POST) and answers the review page, or the edit page with what to fix. */
  async review(id: string, response: ServerResponse, identity: ConsoleIdentity, nonce: string, fields: URLSearchParams): Promise<void> {
    const { tracker, responder, seal, edits, pages, base, csrf } = this.#settings;
    const item = await tracker.loadItem(id);
    const closed = await this.#closedPage(item, identity, nonce);
    if (closed !== null) return responder.sendPage(response, closed, identity, nonce, []);
    const open = item!;
    const current = seal.fingerprint(open.id, open.changes);
    if (!seal.sameFingerprint(current, fields.get('proposal'))) {
      const page = await pages.build(open, identity, nonce, 409, { kind: 'error', text: PROPOSAL_CHANGED });
      return responder.sendPage(response, page, identity, nonce, []);
    }
    const reading = edits.readEdits(open, fields);
    if (!reading.ok) {
      const page = this.#editPage(open, identity, nonce, 422, current, reading.errors, reading.summary, reading.typed);
      return responder.sendPage(response, page, identity, nonce, []);
    }
    if (Object.keys(reading.fresh).length === 0) {
      const summary = 'You changed no field. To approve the arguments as they are, use Grant on the request page.';
      const page = this.#editPage(open, identity, nonce, 422, current, new Map(), summary, new Map());
      return responder.sendPage(response, page, identity, nonce, []);
    }
    const rows: ReviewRow[] = Object.entries(reading.changes)
      .filter(([name, value]) => canonicalJson(value) !== canonicalJson(open.arguments[name]))
      .map(([name, proposed]) => ({ name, held: open.arguments[name], proposed, secret: edits.isSecret(open, name) }));
    const resets = resetsOf(open, reading.changes, identity.principal);
    const sealed = seal.seal({
      id: open.id,
      principal: identity.principal,
      base: current,
      expiresAt: Date.now() + SEALED_EDIT_TTL_MS,
      changes: reading.changes,
      resets,
    });
    const body = renderReviewPage({
      item: edits.hideSecrets(open),
      base,
      csrfToken: csrf.tokenFor(nonce, identity.principal),
      rows,
      sealed,
      resets,
    });
    const page: ConsolePage = {
      status: 200,
      title: `Review changes to ${revealNameAsText(open.tool)}`,
      current: 'detail',
      body,
      live: false,
      url: null,
    };
    responder.sendPage(response, page, identity, nonce, []);
  }

  /** The page answered instead of an edit step: not found, closed, the requester's own call, or nothing editable; else null. */
  async #closedPage(item: ApprovalItem | null, identity: ConsoleIdentity, nonce: string): Promise<ConsolePage | null> {
    const { base, edits, pages } = this.#settings;
    if (item === null) return notFoundPage(base, 'No approval request has this id.');
    if (item.state !== 'pending') return pages.build(item, identity, nonce, 409, { kind: 'error', text: describeDecided(item) });
    if (item.requester !== null && item.requester === identity.principal) {
      const text = 'You asked for this call, so you cannot approve it, with edits or without. Nothing was recorded.';
      return pages.build(item, identity, nonce, 403, { kind: 'error', text });
    }
    if (edits.fieldsFor(item).length === 0) {
      return pages.build(item, identity, nonce, 404, { kind: 'error', text: 'No argument of this call can be edited here.' });
    }
    return null;
  }

  #editPage(
    item: ApprovalItem,
    identity: ConsoleIdentity,
    nonce: string,
    status: number,
    proposal: string,
    errors: ReadonlyMap<string, string>,
    summary: string | null,
    typed: ReadonlyMap<string, string>,
  ): ConsolePage {
    const { base, csrf, edits } = this.#settings;
    const fields = edits.fieldsFor(item);
    const fixed = Object.keys(item.arguments).filter((name) => !fields.some((field) => field.name === name));
    const body = renderEditPage({
      item: edits.hideSecrets(item),
      fixed,
      base,
      csrfToken: csrf.tokenFor(nonce, identity.principal),
      proposal,
      fields,
      errors,
      summary,
      typed,
    });
    return {
      status,
      title: `Edit ${revealNameAsText(item.tool)}`,
      current: 'detail',
      body,
      live: false,
      url: approvalPath(base, item.id, 'edit'),
    };
  }
}
