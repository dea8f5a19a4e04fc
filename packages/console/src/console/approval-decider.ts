import type { ServerResponse } from 'node:http';
import { VerificationRequest } from '@milpa/core';
import type { HumanVerifier } from '@milpa/verification';
import type { ApprovalEdits } from '../edits/approval-edits.js';
import type { PageMessage } from '../views/render-detail-page.js';
import type { ConsoleIdentity } from './approval-console-options.js';
import type { ApprovalItem } from './approval-item.js';
import type { ApprovalTracker } from './approval-tracker.js';
import { notFoundPage } from './console-page.js';
import type { ConsoleResponder } from './console-responder.js';
import { decisionRefusalOf, describeDecided, selfApprovalMessage } from './decision-refusals.js';
import type { DetailPages } from './detail-pages.js';

const MAX_REASON = 1000;

/** What an {@link ApprovalDecider} works with. */
export interface ApprovalDeciderSettings {
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** Records grants and rejections (and enforces its rules). */
  readonly verifier: HumanVerifier;
  /** Reads the item being decided. */
  readonly tracker: ApprovalTracker;
  /** Reads and checks the edits of a grant. */
  readonly edits: ApprovalEdits;
  /** Builds the detail page a refused decision is answered with. */
  readonly pages: DetailPages;
  /** Writes the answers. */
  readonly responder: ConsoleResponder;
  /** Called once a decision is recorded (to refresh open pages). */
  readonly onDecided: () => void;
}

/**
 * Handles a grant or reject form: checks the reason, that the item is still pending, that a
 * rejection has a reason, that the requester does not approve their own call and that edits are
 * acceptable, then records the decision with the verifier. A refused decision answers the detail
 * page with a message saying why; a recorded one redirects to it with a notice.
 */
export class ApprovalDecider {
  readonly #settings: ApprovalDeciderSettings;

  /** A decider working with `settings`. */
  constructor(settings: ApprovalDeciderSettings) {
    this.#settings = settings;
  }

  /** Decides approval `id` as `identity` asked with the form `fields`, and answers. */
  async decide(
    verb: 'grant' | 'reject',
    id: string,
    response: ServerResponse,
    identity: ConsoleIdentity,
    nonce: string,
    fields: URLSearchParams,
  ): Promise<void> {
    const { base, verifier, tracker, edits, responder } = this.#settings;
    const refuse = async (item: ApprovalItem, status: number, text: string, typed?: ReadonlyMap<string, string>): Promise<void> => {
      const message: PageMessage = { kind: 'error', text };
      responder.sendPage(response, await this.#settings.pages.build(item, identity, nonce, status, message, typed), identity, nonce, []);
    };
    const item = await tracker.loadItem(id);
    if (item === null) return responder.sendPage(response, notFoundPage(base, 'No approval request has this id.'), identity, nonce, []);
    const reasonText = (fields.get('reason') ?? '').trim();
    if (reasonText.length > MAX_REASON)
      return refuse(item, 422, `The reason is longer than ${MAX_REASON} characters; nothing was recorded.`);
    if (item.state !== 'pending') return refuse(item, 409, describeDecided(item));
    const target = new VerificationRequest(item.subject, item.policy, {}, null, item.id);
    let notice: string;
    try {
      if (verb === 'reject') {
        if (reasonText === '') return refuse(item, 422, 'Give a reason for the rejection; nothing was recorded.');
        await verifier.reject(target, identity.principal, reasonText);
        notice = 'rejected';
      } else {
        if (item.requester !== null && item.requester === identity.principal) return refuse(item, 403, selfApprovalMessage(item));
        const changes = edits.readChanges(item, fields);
        if (!changes.ok) return refuse(item, 422, changes.message, changes.typed);
        const result = await verifier.grant(target, identity.principal, reasonText === '' ? null : reasonText, {
          changes: changes.changes,
        });
        notice = result.status === 'passed' ? 'granted' : 'recorded';
      }
    } catch (error) {
      const refusal = decisionRefusalOf(error, item);
      if (refusal === null) throw error;
      return refuse((await tracker.loadItem(id)) ?? item, refusal.status, refusal.message);
    }
    this.#settings.onDecided();
    responder.redirect(response, `${base}approvals/${encodeURIComponent(id)}?notice=${notice}`);
  }
}
