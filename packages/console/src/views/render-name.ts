import { escapeHtml } from '../security/escape-html.js';
import { UNUSUAL_NAME_WARNING, revealName } from './reveal-text.js';

/** A name from a held call, ready to show. */
export interface RenderedName {
  /** The name as HTML, characters outside printable ASCII as `\u{…}` escapes; `—` for none. */
  readonly html: string;
  /** A warning paragraph when the name holds escapes, else empty. */
  readonly warning: string;
  /** A short inline warning (for a table cell) when the name holds escapes, else empty. */
  readonly mark: string;
  /** {@link RenderedName.html} followed by {@link RenderedName.mark}. */
  readonly withWarning: string;
}

/**
 * A tool name, requester, channel, run or request id from a held call as HTML through
 * {@link revealName}: a look-alike character (a Cyrillic `і` in `print_note`) shows as an escape,
 * with a warning.
 *
 * @example
 * renderName('pr\u0456nt_note').warning !== ''; // true
 */
export function renderName(name: string | null): RenderedName {
  if (name === null) return { html: '—', warning: '', mark: '', withWarning: '—' };
  const shown = revealName(name);
  if (shown.escaped === 0) return { html: shown.html, warning: '', mark: '', withWarning: shown.html };
  const mark = ' <span class="warning">(unusual characters: may imitate another name)</span>';
  return {
    html: shown.html,
    warning: `<p class="warning">${escapeHtml(UNUSUAL_NAME_WARNING)}</p>`,
    mark,
    withWarning: `${shown.html}${mark}`,
  };
}
