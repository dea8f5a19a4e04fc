import type { ApprovalStore, InvocationHistory, InvocationHistoryStore } from '@milpa/core';
import type { ApprovalEdits } from '../edits/approval-edits.js';
import type { ProposalSeal } from '../edits/proposal-seal.js';
import type { CsrfGuard } from '../security/csrf-guard.js';
import { renderDetailPage, type PageMessage } from '../views/render-detail-page.js';
import type { ConsoleIdentity, ConsoleToolCatalog } from './approval-console-options.js';
import type { ApprovalItem } from './approval-item.js';
import type { ConsolePage } from './console-page.js';
import { NO_FACTS, withCatalogFacts } from './decision-facts.js';
import { readHeldCallOutcome } from './held-call-outcome.js';
import { revealNameAsText } from '../views/reveal-text.js';

/** What {@link DetailPages} needs. */
export interface DetailPagesSettings {
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** Signs the CSRF token of the grant and reject forms. */
  readonly csrf: CsrfGuard;
  /** Which fields the approver may edit, and which are secret. */
  readonly edits: ApprovalEdits;
  /** Names the proposal the Grant form approves. */
  readonly seal: ProposalSeal;
  /** Where the run's history is read; without it the page says it is unavailable. */
  readonly history: InvocationHistoryStore | undefined;
  /** Where held calls are read for their outcome; without it a granted call's outcome is not known. */
  readonly approvals?: ApprovalStore | undefined;
  /** Tool definitions, for the description and hints of calls held without them. */
  readonly tools?: ConsoleToolCatalog | undefined;
}

/** Builds the detail page of one held call: the item, its run's history, its forms and a message. */
export class DetailPages {
  readonly #settings: DetailPagesSettings;

  /** Detail pages built with `settings`. */
  constructor(settings: DetailPagesSettings) {
    this.#settings = settings;
  }

  /** The detail page of `item` for `identity`, answered with `status`, showing `message`; secret values set by approvers are hidden. */
  async build(
    item: ApprovalItem,
    identity: ConsoleIdentity,
    nonce: string,
    status: number,
    message: PageMessage | null,
  ): Promise<ConsolePage> {
    const { base, csrf, edits, seal } = this.#settings;
    const now = Date.now();
    const body = renderDetailPage({
      item: edits.hideSecrets(item),
      proposal: seal.fingerprint(item.id, item.changes),
      base,
      now,
      principal: identity.principal,
      csrfToken: csrf.tokenFor(nonce, identity.principal),
      editable: item.state === 'pending' ? edits.fieldsFor(item) : [],
      history: await this.#historyFor(item),
      message,
      facts: withCatalogFacts(item.facts ?? NO_FACTS, this.#definitionOf(item.tool)),
      outcome: item.state === 'granted' ? await readHeldCallOutcome(this.#settings.approvals, item, now) : null,
    });
    return {
      status,
      title: `Approve ${revealNameAsText(item.tool)}?`,
      current: 'detail',
      body,
      live: true,
      url: `${base}approvals/${encodeURIComponent(item.id)}`,
    };
  }

  #definitionOf(tool: string) {
    try {
      return this.#settings.tools?.getDefinition(tool) ?? null;
    } catch {
      return null;
    }
  }

  async #historyFor(item: ApprovalItem): Promise<InvocationHistory | null | 'unavailable'> {
    if (item.runId === null) return null;
    const history = this.#settings.history;
    if (history === undefined) return 'unavailable';
    try {
      return await history.load(item.runId);
    } catch {
      return 'unavailable';
    }
  }
}
