import type { ServerResponse } from 'node:http';
import { VerificationRequest } from '@milpa/core';
import type { HumanVerifier } from '@milpa/verification';
import type { ApprovalEdits } from '../edits/approval-edits.js';
import { SEALED_EDIT_TTL_MS, type ProposalSeal, type SealRefusal } from '../edits/proposal-seal.js';
import type { PageMessage } from '../views/render-detail-page.js';
import type { ConsoleIdentity } from './approval-console-options.js';
import type { ApprovalItem } from './approval-item.js';
import type { ApprovalTracker } from './approval-tracker.js';
import { notFoundPage } from './console-page.js';
import type { ConsoleResponder } from './console-responder.js';
import { PROPOSAL_CHANGED, resetsOf } from './approval-edit-flow.js';
import { decisionRefusalOf, describeDecided, selfApprovalMessage } from './decision-refusals.js';
import type { DetailPages } from './detail-pages.js';

const MAX_REASON = 1000;

const SEAL_REFUSALS: Readonly<Record<SealRefusal, { status: number; text: string }>> = Object.freeze({
  malformed: { status: 400, text: 'The confirmed changes are not readable; nothing was recorded. Edit the arguments again.' },
  tampered: { status: 400, text: 'The confirmed changes were altered or come from elsewhere; nothing was recorded.' },
  expired: { status: 409, text: 'The review of these changes expired; nothing was recorded. Edit the arguments again.' },
  other_item: { status: 403, text: 'These confirmed changes belong to another approval request; nothing was recorded.' },
  other_principal: { status: 403, text: 'These changes were reviewed by another approver; nothing was recorded.' },
});

/** One posted decision form, and where to answer it. */
interface DecisionForm {
  readonly verb: 'grant' | 'reject';
  readonly id: string;
  readonly response: ServerResponse;
  readonly identity: ConsoleIdentity;
  readonly nonce: string;
  readonly fields: URLSearchParams;
}

/** The changes a grant form approves, or why it is refused. */
type GrantChanges =
  | { readonly ok: true; readonly changes: Readonly<Record<string, unknown>> | null }
  | { readonly ok: false; readonly status: number; readonly text: string };

/** What an {@link ApprovalDecider} works with. */
export interface ApprovalDeciderSettings {
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** Records grants and rejections (and enforces its rules). */
  readonly verifier: HumanVerifier;
  /** Reads the item being decided. */
  readonly tracker: ApprovalTracker;
  /** Checks the edits of a grant again. */
  readonly edits: ApprovalEdits;
  /** Opens sealed edits and names proposals. */
  readonly seal: ProposalSeal;
  /** Builds the detail page a refused decision is answered with. */
  readonly pages: DetailPages;
  /** Writes the answers. */
  readonly responder: ConsoleResponder;
  /** Called once a decision is recorded (to refresh open pages). */
  readonly onDecided: () => void;
}

/**
 * Handles a grant or reject form: checks the reason, that the item is still pending, that a
 * rejection has a reason, that the requester does not approve their own call, then records the
 * decision with the verifier. A plain grant approves exactly the proposal its page showed (named
 * by its fingerprint; a form without one means the arguments as held) and is refused when the
 * proposal changed since; a grant with edits carries them sealed from the review step, and is
 * refused when the seal is broken, expired, another approver's or another item's. A refused
 * decision answers the detail page with a message saying why; a recorded one redirects to it with
 * a notice.
 */
export class ApprovalDecider {
  readonly #settings: ApprovalDeciderSettings;
  /** The last decision queued per item id. */
  readonly #queues = new Map<string, Promise<void>>();

  /** A decider working with `settings`. */
  constructor(settings: ApprovalDeciderSettings) {
    this.#settings = settings;
  }

  /**
   * Decides approval `id` as `identity` asked with the form `fields`, and answers. Decisions on one
   * item run one at a time in this console, so the proposal a grant checks is still the one in
   * effect when the grant is recorded (another console on a shared store is not covered).
   */
  async decide(
    verb: 'grant' | 'reject',
    id: string,
    response: ServerResponse,
    identity: ConsoleIdentity,
    nonce: string,
    fields: URLSearchParams,
  ): Promise<void> {
    return this.#oneAtATime(id, () => this.#decideNow({ verb, id, response, identity, nonce, fields }));
  }

  /** Runs `task` after the decisions already queued on item `id`. */
  async #oneAtATime(id: string, task: () => Promise<void>): Promise<void> {
    const before = this.#queues.get(id) ?? Promise.resolve();
    const turn = before.then(task);
    const settled = turn.catch(() => undefined);
    this.#queues.set(id, settled);
    try {
      await turn;
    } finally {
      if (this.#queues.get(id) === settled) this.#queues.delete(id);
    }
  }

  async #decideNow(decision: DecisionForm): Promise<void> {
    const { verb, id, response, identity, nonce, fields } = decision;
    const { base, verifier, tracker, responder } = this.#settings;
    const refuse = async (item: ApprovalItem, status: number, text: string): Promise<void> => {
      const message: PageMessage = { kind: 'error', text };
      responder.sendPage(response, await this.#settings.pages.build(item, identity, nonce, status, message), identity, nonce, []);
    };
    const item = await tracker.loadItem(id);
    if (item === null) return responder.sendPage(response, notFoundPage(base, 'No approval request has this id.'), identity, nonce, []);
    const reasonText = (fields.get('reason') ?? '').trim();
    if (reasonText.length > MAX_REASON)
      return refuse(item, 422, `The reason is longer than ${MAX_REASON} characters; nothing was recorded.`);
    if (item.state !== 'pending') return refuse(item, 409, describeDecided(item));
    const target = new VerificationRequest(item.subject, item.policy, {}, null, item.id);
    let notice: string;
    let resets: string[] = [];
    try {
      if (verb === 'reject') {
        if (reasonText === '') return refuse(item, 422, 'Give a reason for the rejection; nothing was recorded.');
        await verifier.reject(target, identity.principal, reasonText);
        notice = 'rejected';
      } else {
        if (item.requester !== null && item.requester === identity.principal) return refuse(item, 403, selfApprovalMessage(item));
        const grant = this.#grantChanges(item, identity, fields);
        if (!grant.ok) return refuse(item, grant.status, grant.text);
        resets = resetsOf(item, grant.changes, identity.principal);
        const result = await verifier.grant(target, identity.principal, reasonText === '' ? null : reasonText, {
          changes: grant.changes,
        });
        notice = result.status === 'passed' ? 'granted' : 'recorded';
      }
    } catch (error) {
      const refusal = decisionRefusalOf(error, item);
      if (refusal === null) throw error;
      return refuse((await tracker.loadItem(id)) ?? item, refusal.status, refusal.message);
    }
    this.#settings.onDecided();
    const reset =
      resets.length === 0
        ? ''
        : `&resets=${this.#settings.seal.seal({
            id,
            principal: identity.principal,
            base: 'notice',
            expiresAt: Date.now() + SEALED_EDIT_TTL_MS,
            changes: {},
            resets,
          })}`;
    responder.redirect(response, `${base}approvals/${encodeURIComponent(id)}?notice=${notice}${reset}`);
  }

  #grantChanges(item: ApprovalItem, identity: ConsoleIdentity, fields: URLSearchParams): GrantChanges {
    const { seal, edits } = this.#settings;
    if ([...fields.keys()].some((key) => key.startsWith('edit.'))) {
      return {
        ok: false,
        status: 422,
        text: 'A grant carries no argument values: use "Edit arguments…" to change them. Nothing was recorded.',
      };
    }
    const current = seal.fingerprint(item.id, item.changes);
    const sealed = fields.get('sealed');
    if (sealed === null) {
      // A form without a fingerprint claims the arguments as held, nothing else.
      const shown = fields.get('proposal') ?? seal.fingerprint(item.id, null);
      if (!seal.sameFingerprint(current, shown)) return { ok: false, status: 409, text: PROPOSAL_CHANGED };
      return { ok: true, changes: item.changes };
    }
    const opened = seal.open(sealed, item.id, identity.principal, Date.now());
    if (!opened.ok || opened.edit.base === 'notice') {
      const refusal = SEAL_REFUSALS[opened.ok ? 'tampered' : opened.refusal];
      return { ok: false, status: refusal.status, text: refusal.text };
    }
    if (!seal.sameFingerprint(current, opened.edit.base)) return { ok: false, status: 409, text: PROPOSAL_CHANGED };
    const problem = edits.checkChanges(item, opened.edit.changes);
    if (problem !== null) return { ok: false, status: 422, text: problem };
    return { ok: true, changes: opened.edit.changes };
  }
}
