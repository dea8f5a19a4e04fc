import { escapeHtml } from '../security/escape-html.js';
import type { ConsolePage } from './console-page.js';
import { MAX_FORM_BYTES } from './read-form-body.js';

/**
 * The page a form over the size limit is answered with (413): nothing was recorded, and a link back
 * to the approval request the form was posted for (`route` is the path after the base, e.g.
 * `approvals/<id>/grant`), or to the pending list for any other form.
 *
 * @example
 * formTooLargePage('/approvals/', 'approvals/a1/grant').status; // 413
 */
export function formTooLargePage(base: string, route: string): ConsolePage {
  const item = /^approvals\/([^/]+)\//.exec(route)?.[1];
  const back =
    item === undefined
      ? { href: base, text: 'Back to the pending list' }
      : { href: `${base}approvals/${item}`, text: 'Back to the approval request' };
  return {
    status: 413,
    title: 'Form too large',
    current: 'detail',
    body:
      `<h1>Form too large</h1><div class="message error" role="alert"><p>The form is larger than ${MAX_FORM_BYTES / 1024} KiB, ` +
      `so nothing was recorded.</p></div><p>Shorten what you typed (a reason or an edit) and send it again.</p>` +
      `<p><a href="${escapeHtml(back.href)}">${escapeHtml(back.text)}</a></p>`,
    live: false,
    url: null,
  };
}
