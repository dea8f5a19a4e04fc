import { escapeHtml } from '../security/escape-html.js';

/** What {@link renderLayout} puts around a page's content. */
export interface LayoutOptions {
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** The page title (plain text). */
  readonly title: string;
  /** The console's name (plain text). */
  readonly consoleTitle: string;
  /** The signed-in principal, or null on the sign-in page. */
  readonly principal: string | null;
  /** The CSRF token for the sign-out form, or null. */
  readonly csrfToken: string | null;
  /** Which navigation entry is current. */
  readonly current: 'pending' | 'history' | 'detail' | 'login';
  /** The page's main content (HTML). */
  readonly body: string;
  /** True to open the live-update stream on this page. */
  readonly live: boolean;
  /** The address that shows this page again with GET (live updates fetch it), or null. */
  readonly pageUrl: string | null;
  /** True when the console has a sign-in page (and so a sign-out button). */
  readonly canSignOut: boolean;
}

/** A complete HTML document: one stylesheet, one external script, no inline code. */
export function renderLayout(options: LayoutOptions): string {
  const { base } = options;
  const navLink = (href: string, label: string, current: boolean): string =>
    `<li><a href="${escapeHtml(href)}"${current ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a></li>`;
  const nav =
    options.principal === null
      ? ''
      : `<nav aria-label="Console"><ul>${navLink(base, 'Pending', options.current === 'pending')}` +
        `${navLink(`${base}history`, 'History', options.current === 'history')}</ul></nav>`;
  const who =
    options.principal === null
      ? ''
      : `<div class="who"><p>Signed in as <strong>${escapeHtml(options.principal)}</strong></p>${
          options.canSignOut && options.csrfToken !== null
            ? ` <form method="post" action="${escapeHtml(`${base}logout`)}" class="inline"><input type="hidden" name="_csrf" ` +
              `value="${escapeHtml(options.csrfToken)}"><button type="submit" class="link">Sign out</button></form>`
            : ''
        }</div>`;
  const live = options.live
    ? ` data-events="${escapeHtml(`${base}events`)}"${options.pageUrl === null ? '' : ` data-page="${escapeHtml(options.pageUrl)}"`}`
    : '';
  return (
    `<!doctype html>
<html lang="en"${live}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)} · ${escapeHtml(options.consoleTitle)}</title>
<link rel="stylesheet" href="${escapeHtml(`${base}assets/console.css`)}">
<script src="${escapeHtml(`${base}assets/console.js`)}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header><p class="brand">${escapeHtml(options.consoleTitle)}</p>${nav}${who}<p class="live-status" id="live-status" ` +
    `role="status" aria-live="polite"></p></header>
<main id="main" tabindex="-1">
${options.body}
</main>
</body>
</html>
`
  );
}
