import { escapeHtml } from '../security/escape-html.js';

/** The sign-in form: one password field for the approver's token. */
export function renderLoginPage(base: string, csrfToken: string, error: string | null): string {
  return (
    `<h1>Sign in</h1>
${error === null ? '' : `<div class="message error" role="alert"><p>${escapeHtml(error)}</p></div>`}
<form method="post" action="${escapeHtml(`${base}login`)}" class="login">
<input type="hidden" name="_csrf" value="${escapeHtml(csrfToken)}">
<div class="field"><label for="token">Approver token</label><input id="token" name="token" type="password" ` +
    `autocomplete="current-password" required></div>
<button type="submit" class="primary">Sign in</button>
</form>`
  );
}
