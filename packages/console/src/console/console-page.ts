import type { LayoutOptions } from '../views/render-layout.js';
import { escapeHtml } from '../security/escape-html.js';

/** A page the console answers with, before the layout wraps it. */
export interface ConsolePage {
  /** The HTTP status. */
  readonly status: number;
  /** The page's title. */
  readonly title: string;
  /** Which navigation entry is current. */
  readonly current: LayoutOptions['current'];
  /** The page's body, already escaped HTML. */
  readonly body: string;
  /** Whether the page follows live updates. */
  readonly live: boolean;
  /** The address that shows this page with GET, for live updates; null for none. */
  readonly url: string | null;
}

/**
 * The console's 404 page: `what` says what was not found, with a link back to the pending list.
 *
 * @example
 * notFoundPage('/approvals/', 'No approval request has this id.').status; // 404
 */
export function notFoundPage(base: string, what: string): ConsolePage {
  return {
    status: 404,
    title: 'Not found',
    current: 'detail',
    body: `<h1>Not found</h1><p>${escapeHtml(what)}</p><p><a href="${escapeHtml(base)}">Back to the pending list</a></p>`,
    live: false,
    url: null,
  };
}
