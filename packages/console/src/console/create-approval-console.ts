import type { IncomingMessage, ServerResponse } from 'node:http';
import { MilpaError, VerificationRequest, type InvocationHistory, type JsonSchema } from '@milpa/core';
import { HumanVerifier, VerificationError } from '@milpa/verification';
import { CONSOLE_SCRIPT } from '../assets/console-script.js';
import { CONSOLE_STYLESHEET } from '../assets/console-stylesheet.js';
import { editableFieldsOf, formatFieldValue, readFieldValue, type EditableField } from '../edits/editable-fields.js';
import { LiveFeed } from '../live/live-feed.js';
import { checkSameOrigin } from '../security/check-same-origin.js';
import { readCookies, serializeCookie } from '../security/cookies.js';
import { CsrfGuard } from '../security/csrf-guard.js';
import { escapeHtml } from '../security/escape-html.js';
import { SECURITY_HEADERS } from '../security/security-headers.js';
import { renderDetailPage, type PageMessage } from '../views/render-detail-page.js';
import { renderHistoryPage } from '../views/render-history-page.js';
import { renderLayout, type LayoutOptions } from '../views/render-layout.js';
import { renderLoginPage } from '../views/render-login-page.js';
import { renderPendingPage } from '../views/render-pending-page.js';
import type { ApprovalConsoleOptions, ConsoleIdentity } from './approval-console-options.js';
import { toApprovalItem, type ApprovalItem } from './approval-item.js';
import { readFormBody } from './read-form-body.js';

/**
 * The approvals console: a Node request handler (`(request, response, next?)`) with a `close()`
 * for shutdown. Mount it as is in `node:http`, Express, Fastify (`@fastify/middie`) or Hono's Node
 * server; outside its `basePath` it calls `next()` when given one, else answers 404.
 */
export interface ApprovalConsole {
  (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void): void;
  /** Ends the open live-update streams and stops listening to the dispatcher. */
  close(): void;
  /** Shows the verification request `id` (when it is an approval) even if no event announced it. */
  track(id: string): void;
  /** Tells open pages to refresh (after a change the console cannot see by itself). */
  notify(): void;
}

const CSRF_COOKIE = 'milpa_console_csrf';
const TOKEN_SHAPE = /^[A-Za-z0-9._~-]{1,512}$/;
const MAX_REASON = 1000;
const HISTORY_LIMIT = 200;
/** What `@milpa/tool-runtime` puts in place of a secret argument before anyone sees it. */
const REDACTED_PLACEHOLDER = '***REDACTED***';

const NOTICES: Readonly<Record<string, string>> = Object.freeze({
  granted: 'Granted: the waiting call may now run.',
  recorded: 'Your approval is recorded; the policy needs more approvals from other people.',
  rejected: 'Rejected: the call will not run.',
});

/** A page answer. */
interface Page {
  readonly status: number;
  readonly title: string;
  readonly current: LayoutOptions['current'];
  readonly body: string;
  readonly live: boolean;
  /** The address that shows this page with GET, for live updates; null for none. */
  readonly url: string | null;
}

function normalizeBase(basePath: string | undefined): string {
  const base = basePath ?? '/';
  if (typeof base !== 'string' || !base.startsWith('/') || /[?#\s]/.test(base)) {
    throw new MilpaError(`createApprovalConsole basePath must be a path starting with '/', got ${String(basePath)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return base.endsWith('/') ? base : `${base}/`;
}

/**
 * Creates the approvals console: the pending list, a detail view per held call (redacted
 * arguments, the run's history, the gate and policy that asked), grant and reject with a reason,
 * edits of declared input fields checked against the tool's schema, a history of decided items,
 * and live updates over server-sent events.
 *
 * Security: the approver is whoever `authenticate(request)` says, never a form field; every
 * state change needs a same-origin request and a CSRF token bound to a `SameSite=Strict` cookie
 * and to the approver; every page has a strict Content-Security-Policy (no inline code) and
 * escapes every text; the verifier's rules (no self-approval, distinct approvers for `dual` and
 * `quorum`, decided once) are enforced on the server, and the page says why when one refuses.
 *
 * @throws MilpaError `INVALID_ARGUMENT` without `authenticate`, without `verifier` or `store`, or for a bad `basePath`.
 * @example
 * import { createServer } from 'node:http';
 * const console = createApprovalConsole({ verifier, dispatcher, authenticate: (request) => sessions.identify(request), basePath: '/approvals' });
 * createServer(console).listen(8080, '127.0.0.1');
 */
export function createApprovalConsole(options: ApprovalConsoleOptions): ApprovalConsole {
  if (typeof options?.authenticate !== 'function') {
    throw new MilpaError('createApprovalConsole needs an authenticate(request) function: it is the only source of the approver.', {
      code: 'INVALID_ARGUMENT',
    });
  }
  if (options.verifier === undefined && options.store === undefined) {
    throw new MilpaError('createApprovalConsole needs a verifier (or a verification store).', { code: 'INVALID_ARGUMENT' });
  }
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  if (!(Number.isFinite(pollIntervalMs) && pollIntervalMs >= 50)) {
    throw new MilpaError(`createApprovalConsole pollIntervalMs must be at least 50, got ${String(options.pollIntervalMs)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  const base = normalizeBase(options.basePath);
  const verifier = options.verifier ?? new HumanVerifier({ store: options.store! });
  const store = verifier.store;
  const csrf = new CsrfGuard(options.secret ?? null);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const consoleTitle = options.title ?? 'Milpa approvals';
  const maxTracked = options.maxTracked ?? 10_000;
  const tracked = new Set<string>();

  function track(id: string): void {
    if (typeof id !== 'string' || id === '' || tracked.has(id)) return;
    tracked.add(id);
    if (tracked.size > maxTracked) {
      const oldest = tracked.values().next().value;
      if (oldest !== undefined) tracked.delete(oldest);
    }
  }

  async function loadItems(): Promise<ApprovalItem[]> {
    const ids = new Set(tracked);
    if (options.listRequestIds !== undefined) for (const id of await options.listRequestIds()) if (typeof id === 'string') ids.add(id);
    const now = Date.now();
    const items: ApprovalItem[] = [];
    for (const id of ids) {
      const record = await store.get(id);
      if (record === null) {
        tracked.delete(id);
        continue;
      }
      const item = toApprovalItem(record, now);
      if (item === null) tracked.delete(id);
      else {
        track(id);
        items.push(item);
      }
    }
    return items;
  }

  const feed = new LiveFeed(async () => {
    const items = await loadItems();
    return items
      .map((item) => `${item.id}:${item.state}:${item.approvals.length}`)
      .sort()
      .join('|');
  }, pollIntervalMs);

  const unsubscribe =
    options.dispatcher?.subscribe('verification.*', (_name, payload) => {
      const event = (payload as { event?: { getRequestId?: () => string | null } } | undefined)?.event;
      const id = typeof event?.getRequestId === 'function' ? event.getRequestId() : null;
      if (id !== null) track(id);
      feed.broadcast();
    }) ?? null;

  function secureFor(request: IncomingMessage): boolean {
    return options.secureCookies ?? (request.socket as { encrypted?: boolean }).encrypted === true;
  }

  function send(
    response: ServerResponse,
    status: number,
    contentType: string,
    body: string,
    headers: Readonly<Record<string, string | string[]>> = {},
  ): void {
    response.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': contentType, ...headers });
    response.end(body);
  }

  function sendPage(response: ServerResponse, page: Page, identity: ConsoleIdentity | null, nonce: string, cookies: string[]): void {
    const html = renderLayout({
      base,
      title: page.title,
      consoleTitle,
      principal: identity?.principal ?? null,
      csrfToken: identity === null ? null : csrf.tokenFor(nonce, identity.principal),
      current: page.current,
      body: page.body,
      live: page.live,
      pageUrl: page.url,
      canSignOut: options.login !== undefined,
    });
    send(response, page.status, 'text/html; charset=utf-8', html, cookies.length === 0 ? {} : { 'Set-Cookie': cookies });
  }

  function redirect(response: ServerResponse, location: string, cookies: string[] = []): void {
    send(response, 303, 'text/plain; charset=utf-8', 'See other', {
      Location: location,
      ...(cookies.length === 0 ? {} : { 'Set-Cookie': cookies }),
    });
  }

  async function identify(request: IncomingMessage): Promise<ConsoleIdentity | null> {
    try {
      const identity = await options.authenticate(request);
      if (identity === null || identity === undefined || typeof identity.principal !== 'string' || identity.principal.trim() === '')
        return null;
      return { principal: identity.principal.trim() };
    } catch {
      // A failing authenticator signs nobody in (fail closed).
      return null;
    }
  }

  function editableFor(item: ApprovalItem): readonly EditableField[] {
    if (options.tools === undefined || options.validator === undefined) return [];
    const definition = options.tools.getDefinition(item.tool);
    if (definition === null || definition === undefined) return [];
    const only = options.editableFields === undefined ? null : options.editableFields(item.tool);
    if (options.editableFields !== undefined && only === null) return [];
    // A field the runtime redacted (its name looks secret) is never shown, so never edited either.
    return editableFieldsOf(definition.inputSchema, only).filter((field) => item.arguments[field.name] !== REDACTED_PLACEHOLDER);
  }

  async function historyFor(item: ApprovalItem): Promise<InvocationHistory | null | 'unavailable'> {
    if (item.runId === null) return null;
    if (options.history === undefined) return 'unavailable';
    try {
      return await options.history.load(item.runId);
    } catch {
      return 'unavailable';
    }
  }

  async function loadItem(id: string): Promise<ApprovalItem | null> {
    const record = await store.get(id);
    const item = record === null ? null : toApprovalItem(record, Date.now());
    if (item !== null) track(id);
    return item;
  }

  async function detailPage(
    item: ApprovalItem,
    identity: ConsoleIdentity,
    nonce: string,
    status: number,
    message: PageMessage | null,
    typed: ReadonlyMap<string, string> = new Map(),
  ): Promise<Page> {
    const body = renderDetailPage({
      item,
      base,
      now: Date.now(),
      principal: identity.principal,
      csrfToken: csrf.tokenFor(nonce, identity.principal),
      editable: item.state === 'pending' ? editableFor(item) : [],
      history: await historyFor(item),
      message,
      typed,
    });
    return {
      status,
      title: `Approve ${item.tool}?`,
      current: 'detail',
      body,
      live: true,
      url: `${base}approvals/${encodeURIComponent(item.id)}`,
    };
  }

  function notFoundPage(what: string): Page {
    return {
      status: 404,
      title: 'Not found',
      current: 'detail',
      body: `<h1>Not found</h1><p>${escapeHtml(what)}</p><p><a href="${escapeHtml(base)}">Back to the pending list</a></p>`,
      live: false,
      url: null,
    };
  }

  function describeDecided(item: ApprovalItem): string {
    if (item.state === 'expired') return 'This request expired before it was decided; nothing changed. The caller has to ask again.';
    const by = item.decidedBy === null ? '' : ` by ${item.decidedBy}`;
    return `This request was already decided (${item.state === 'granted' ? 'granted' : item.state === 'rejected' ? 'rejected' : 'closed'}${by}); nothing changed.`;
  }

  function selfApprovalMessage(item: ApprovalItem): string {
    return `You asked for this call (${item.requester ?? ''}), so you cannot approve it: someone other than the requester has to. Nothing was recorded.`;
  }

  /** The changes a grant form asks for, or a message saying why they are refused. */
  function readChanges(
    item: ApprovalItem,
    fields: URLSearchParams,
  ):
    | { ok: true; changes: Record<string, unknown> | null; typed: Map<string, string> }
    | { ok: false; message: string; typed: Map<string, string> } {
    const editable = editableFor(item);
    const byName = new Map(editable.map((field) => [field.name, field]));
    const typed = new Map<string, string>();
    const fresh: Record<string, unknown> = {};
    for (const [key, value] of fields) {
      if (!key.startsWith('edit.')) continue;
      const name = key.slice('edit.'.length);
      const field = byName.get(name);
      if (field === undefined) return { ok: false, message: `The field '${name}' cannot be edited here; nothing was recorded.`, typed };
      typed.set(name, value);
      const current = Object.hasOwn(item.changes ?? {}, name) ? item.changes?.[name] : item.arguments[name];
      if (value !== formatFieldValue(current)) fresh[name] = readFieldValue(field, value);
    }
    if (Object.keys(fresh).length === 0) return { ok: true, changes: null, typed };
    const changes = { ...(item.changes ?? {}), ...fresh };
    const definition = options.tools?.getDefinition(item.tool);
    if (definition === null || definition === undefined || options.validator === undefined) {
      return { ok: false, message: 'Edits are not available for this tool; nothing was recorded.', typed };
    }
    // Only the edited fields are checked here (the held arguments are redacted); the runtime
    // validates the complete arguments again before the call runs.
    const partial: JsonSchema = { ...definition.inputSchema, required: [] };
    const validation = options.validator.validate(changes, partial);
    if (!validation.valid)
      return { ok: false, message: `The edit was refused: ${validation.errors.join('; ')}. Nothing was recorded.`, typed };
    return { ok: true, changes, typed };
  }

  function refusalOf(error: unknown, item: ApprovalItem): { status: number; message: string } | null {
    if (!VerificationError.isVerificationError(error)) return null;
    switch (error.kind) {
      case 'already_resolved':
      case 'expired':
        return {
          status: 409,
          message: describeDecided(item.state === 'pending' ? { ...item, state: error.kind === 'expired' ? 'expired' : 'other' } : item),
        };
      case 'self_approval':
        return { status: 403, message: selfApprovalMessage(item) };
      case 'duplicate_approval':
        return {
          status: 409,
          message: `You have already approved this request; policy '${item.policy}' needs ${item.required} approvals from different people. Nothing changed.`,
        };
      case 'not_found':
        return { status: 404, message: 'This request no longer exists; nothing changed.' };
      case 'invalid_changes':
        return { status: 422, message: 'The edited values are not plain data; nothing was recorded.' };
      default:
        return { status: 409, message: `The decision was refused (${error.kind}); nothing changed.` };
    }
  }

  async function decide(
    verb: 'grant' | 'reject',
    id: string,
    response: ServerResponse,
    identity: ConsoleIdentity,
    nonce: string,
    fields: URLSearchParams,
  ): Promise<void> {
    const item = await loadItem(id);
    if (item === null) return sendPage(response, notFoundPage('No approval request has this id.'), identity, nonce, []);
    const reasonText = (fields.get('reason') ?? '').trim();
    if (reasonText.length > MAX_REASON)
      return sendPage(
        response,
        await detailPage(item, identity, nonce, 422, {
          kind: 'error',
          text: `The reason is longer than ${MAX_REASON} characters; nothing was recorded.`,
        }),
        identity,
        nonce,
        [],
      );
    if (item.state !== 'pending')
      return sendPage(
        response,
        await detailPage(item, identity, nonce, 409, { kind: 'error', text: describeDecided(item) }),
        identity,
        nonce,
        [],
      );
    const target = new VerificationRequest(item.subject, item.policy, {}, null, item.id);
    let notice: string;
    try {
      if (verb === 'reject') {
        if (reasonText === '')
          return sendPage(
            response,
            await detailPage(item, identity, nonce, 422, { kind: 'error', text: 'Give a reason for the rejection; nothing was recorded.' }),
            identity,
            nonce,
            [],
          );
        await verifier.reject(target, identity.principal, reasonText);
        notice = 'rejected';
      } else {
        if (item.requester !== null && item.requester === identity.principal) {
          return sendPage(
            response,
            await detailPage(item, identity, nonce, 403, { kind: 'error', text: selfApprovalMessage(item) }),
            identity,
            nonce,
            [],
          );
        }
        const edits = readChanges(item, fields);
        if (!edits.ok)
          return sendPage(
            response,
            await detailPage(item, identity, nonce, 422, { kind: 'error', text: edits.message }, edits.typed),
            identity,
            nonce,
            [],
          );
        const result = await verifier.grant(target, identity.principal, reasonText === '' ? null : reasonText, { changes: edits.changes });
        notice = result.status === 'passed' ? 'granted' : 'recorded';
      }
    } catch (error) {
      const refusal = refusalOf(error, item);
      if (refusal === null) throw error;
      const current = (await loadItem(id)) ?? item;
      return sendPage(
        response,
        await detailPage(current, identity, nonce, refusal.status, { kind: 'error', text: refusal.message }),
        identity,
        nonce,
        [],
      );
    }
    feed.broadcast();
    redirect(response, `${base}approvals/${encodeURIComponent(id)}?notice=${notice}`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse, next: ((error?: unknown) => void) | undefined): Promise<void> {
    const raw = (request as { originalUrl?: unknown }).originalUrl;
    const url = new URL(typeof raw === 'string' ? raw : (request.url ?? '/'), 'http://console.invalid');
    const path = url.pathname;
    if (`${path}/` === base) return redirect(response, base);
    if (!path.startsWith(base)) {
      if (next !== undefined) return next();
      return send(response, 404, 'text/plain; charset=utf-8', 'Not found');
    }
    const route = path.slice(base.length);
    const method = request.method ?? 'GET';

    if (route === 'assets/console.css' || route === 'assets/console.js') {
      if (method !== 'GET' && method !== 'HEAD')
        return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed', { Allow: 'GET, HEAD' });
      const css = route.endsWith('.css');
      return send(
        response,
        200,
        css ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
        css ? CONSOLE_STYLESHEET : CONSOLE_SCRIPT,
        { 'Cache-Control': 'no-cache' },
      );
    }

    const cookies = readCookies(request);
    const existingNonce = cookies.get(CSRF_COOKIE);
    const setCookies: string[] = [];
    const nonce = csrf.isNonce(existingNonce) ? existingNonce : csrf.newNonce();
    if (nonce !== existingNonce && method === 'GET')
      setCookies.push(serializeCookie(CSRF_COOKIE, nonce, { path: base, secure: secureFor(request) }));

    const isPost = method === 'POST';
    if (isPost) {
      const crossSite = checkSameOrigin(request, allowedOrigins);
      if (crossSite !== null) return send(response, 403, 'text/plain; charset=utf-8', crossSite);
    } else if (method !== 'GET') {
      return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed', { Allow: 'GET, POST' });
    }

    if (route === 'login' && options.login !== undefined) {
      const login = options.login;
      if (!isPost)
        return sendPage(
          response,
          {
            status: 200,
            title: 'Sign in',
            current: 'login',
            body: renderLoginPage(base, csrf.tokenFor(nonce, ''), null),
            live: false,
            url: null,
          },
          null,
          nonce,
          setCookies,
        );
      const body = await readFormBody(request);
      if (!body.ok) return send(response, body.status, 'text/plain; charset=utf-8', body.message);
      if (!csrf.verify(existingNonce, '', body.fields.get('_csrf')))
        return send(
          response,
          403,
          'text/plain; charset=utf-8',
          'Refused: the form has no valid CSRF token. Reload the page and try again.',
        );
      const token = body.fields.get('token') ?? '';
      if (!TOKEN_SHAPE.test(token) || !login.accepts(token)) {
        return sendPage(
          response,
          {
            status: 401,
            title: 'Sign in',
            current: 'login',
            body: renderLoginPage(base, csrf.tokenFor(nonce, ''), 'That token does not sign anyone in.'),
            live: false,
            url: null,
          },
          null,
          nonce,
          [],
        );
      }
      return redirect(response, base, [serializeCookie(login.cookieName, token, { path: base, secure: secureFor(request) })]);
    }

    const identity = await identify(request);
    if (identity === null) {
      if (!isPost && route !== 'events' && options.login !== undefined) return redirect(response, `${base}login`, setCookies);
      return send(
        response,
        401,
        'text/html; charset=utf-8',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in required</title></head><body><main><h1>Sign in required</h1><p>This console needs an authenticated approver.</p></main></body></html>`,
        setCookies.length === 0 ? {} : { 'Set-Cookie': setCookies },
      );
    }

    let fields: URLSearchParams | null = null;
    if (isPost) {
      const body = await readFormBody(request);
      if (!body.ok) return send(response, body.status, 'text/plain; charset=utf-8', body.message);
      if (!csrf.verify(existingNonce, identity.principal, body.fields.get('_csrf'))) {
        return send(
          response,
          403,
          'text/plain; charset=utf-8',
          'Refused: the form has no valid CSRF token. Reload the page and try again.',
        );
      }
      fields = body.fields;
    }

    if (route === 'logout' && options.login !== undefined && fields !== null) {
      return redirect(response, `${base}login`, [
        serializeCookie(options.login.cookieName, '', { path: base, secure: secureFor(request), maxAgeSeconds: 0 }),
      ]);
    }
    if (route === 'events' && fields === null) {
      feed.open(response);
      return;
    }
    if (route === '' && fields === null) {
      const now = Date.now();
      const items = (await loadItems())
        .filter((item) => item.state === 'pending')
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      return sendPage(
        response,
        { status: 200, title: 'Pending approvals', current: 'pending', body: renderPendingPage(items, base, now), live: true, url: base },
        identity,
        nonce,
        setCookies,
      );
    }
    if (route === 'history' && fields === null) {
      const decided = (await loadItems())
        .filter((item) => item.state !== 'pending')
        .sort((a, b) => (b.resolvedAt ?? b.expiresAt ?? b.createdAt).getTime() - (a.resolvedAt ?? a.expiresAt ?? a.createdAt).getTime())
        .slice(0, HISTORY_LIMIT);
      return sendPage(
        response,
        { status: 200, title: 'History', current: 'history', body: renderHistoryPage(decided, base), live: true, url: `${base}history` },
        identity,
        nonce,
        setCookies,
      );
    }
    const match = /^approvals\/([^/]+)(?:\/(grant|reject))?$/.exec(route);
    if (match !== null) {
      let id: string;
      try {
        id = decodeURIComponent(match[1] ?? '');
      } catch {
        return sendPage(response, notFoundPage('No approval request has this id.'), identity, nonce, setCookies);
      }
      const verb = match[2] as 'grant' | 'reject' | undefined;
      if (verb !== undefined && fields !== null) return decide(verb, id, response, identity, nonce, fields);
      if (verb === undefined && fields === null) {
        const item = await loadItem(id);
        if (item === null) return sendPage(response, notFoundPage('No approval request has this id.'), identity, nonce, setCookies);
        const notice = NOTICES[url.searchParams.get('notice') ?? ''];
        return sendPage(
          response,
          await detailPage(item, identity, nonce, 200, notice === undefined ? null : { kind: 'notice', text: notice }),
          identity,
          nonce,
          setCookies,
        );
      }
      return send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed', { Allow: verb === undefined ? 'GET' : 'POST' });
    }
    return sendPage(response, notFoundPage('There is no such page in this console.'), identity, nonce, setCookies);
  }

  const handler = ((request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void): void => {
    handle(request, response, next).catch(() => {
      // Never echo the failure (it may hold store details): a plain page, and the stream closed.
      if (!response.headersSent)
        send(response, 503, 'text/plain; charset=utf-8', 'The approvals store did not answer; nothing was decided. Try again.');
      else response.destroy();
    });
  }) as ApprovalConsole;
  handler.close = () => {
    unsubscribe?.();
    feed.close();
  };
  handler.track = track;
  handler.notify = () => feed.broadcast();
  return handler;
}
