import type { IncomingMessage, ServerResponse } from 'node:http';
import { MilpaError } from '@milpa/core';
import { HumanVerifier } from '@milpa/verification';
import { CONSOLE_SCRIPT } from '../assets/console-script.js';
import { CONSOLE_STYLESHEET } from '../assets/console-stylesheet.js';
import { ApprovalEdits } from '../edits/approval-edits.js';
import { ProposalSeal } from '../edits/proposal-seal.js';
import { LiveFeed } from '../live/live-feed.js';
import { ApprovalNotifications } from '../notify/approval-notifications.js';
import { normalizePublicUrl } from '../notify/normalize-public-url.js';
import { checkSameOrigin } from '../security/check-same-origin.js';
import { readCookies, serializeCookie } from '../security/cookies.js';
import { CsrfGuard } from '../security/csrf-guard.js';
import { renderHistoryPage } from '../views/render-history-page.js';
import { renderPendingPage } from '../views/render-pending-page.js';
import type { ApprovalConsoleOptions, ConsoleIdentity } from './approval-console-options.js';
import type { ApprovalItem } from './approval-item.js';
import { ApprovalDecider } from './approval-decider.js';
import { ApprovalEditFlow } from './approval-edit-flow.js';
import { ApprovalTracker } from './approval-tracker.js';
import { appendResetsNotice } from './append-resets-notice.js';
import { notFoundPage } from './console-page.js';
import { ConsoleResponder } from './console-responder.js';
import { DetailPages } from './detail-pages.js';
import { normalizeBasePath } from './normalize-base-path.js';
import { readFormBody, type FormBody } from './read-form-body.js';
import { SignInRoutes } from './sign-in-routes.js';
import { VisibleApprovals } from './visible-approvals.js';
import { ARGUMENT_VALUE_ROUTE, answerArgumentValue } from './argument-value-route.js';
import { formTooLargePage } from './form-too-large-page.js';

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
const HISTORY_LIMIT = 200;
const CSRF_REFUSED = 'Refused: the form has no valid CSRF token. Reload the page and try again.';

const NOTICES: Readonly<Record<string, string>> = Object.freeze({
  granted: 'Granted: the waiting call may now run.',
  recorded: 'Your approval is recorded; the policy needs more approvals from other people.',
  rejected: 'Rejected: the call will not run.',
});

/**
 * Creates the approvals console: the pending list, a detail view per held call (redacted
 * arguments, the run's history, the gate and policy that asked), grant and reject with a reason
 * (a grant approves exactly the proposal its page showed), an explicit edit → review → confirm
 * step for declared input fields checked against the tool's schema, a history of decided items,
 * and live updates over server-sent events.
 *
 * Security: the approver is whoever `authenticate(request)` says, never a form field; every
 * state change needs a same-origin request and a CSRF token bound to a `SameSite=Strict` cookie
 * and to the approver; every page has a strict Content-Security-Policy (no inline code) and
 * escapes every text; the verifier's rules (no self-approval, distinct approvers for `dual` and
 * `quorum`, decided once) are enforced on the server, and the page says why when one refuses.
 *
 * @throws MilpaError `INVALID_ARGUMENT` without `authenticate`, without `verifier` or `store`, or for a bad `basePath`,
 *   `notify`, `publicUrl` or `sensitiveFields`.
 * @example
 * import { createServer } from 'node:http';
 * const console = createApprovalConsole({
 *   verifier,
 *   dispatcher,
 *   authenticate: (request) => sessions.identify(request),
 *   basePath: '/approvals',
 * });
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
  if (options.approvals !== undefined && typeof options.approvals?.get !== 'function') {
    throw new MilpaError('createApprovalConsole approvals must be an approval store (with get).', { code: 'INVALID_ARGUMENT' });
  }
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  if (!(Number.isFinite(pollIntervalMs) && pollIntervalMs >= 50)) {
    throw new MilpaError(`createApprovalConsole pollIntervalMs must be at least 50, got ${String(options.pollIntervalMs)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  const base = normalizeBasePath(options.basePath);
  if (options.notify !== undefined && typeof options.notify !== 'function')
    throw new MilpaError('createApprovalConsole notify must be a function.', { code: 'INVALID_ARGUMENT' });
  const verifier = options.verifier ?? new HumanVerifier({ store: options.store! });
  const csrf = new CsrfGuard(options.secret ?? null);
  const allowedOrigins = new Set(options.allowedOrigins ?? []);
  const tracker = new ApprovalTracker(verifier.store, options.listRequestIds, options.maxTracked ?? 10_000);
  const responder = new ConsoleResponder({
    base,
    consoleTitle: options.title ?? 'Milpa approvals',
    csrf,
    canSignOut: options.login !== undefined,
  });
  const edits = new ApprovalEdits({
    tools: options.tools,
    validator: options.validator,
    editableFields: options.editableFields,
    sensitiveFields: options.sensitiveFields,
  });
  const visible = new VisibleApprovals(tracker, options.authorize);
  const loadVisibleItemOf = async (rawId: string, identity: ConsoleIdentity): Promise<ApprovalItem | null> => {
    let id: string;
    try {
      id = decodeURIComponent(rawId);
    } catch {
      return null;
    }
    return visible.loadVisibleItem(id, identity);
  };
  const seal = new ProposalSeal(options.secret ?? null);
  const pages = new DetailPages({
    base,
    csrf,
    edits,
    seal,
    history: options.history,
    approvals: options.approvals,
    tools: options.tools,
  });
  const editFlow = new ApprovalEditFlow({ base, tracker, edits, seal, csrf, pages, responder });

  const feed = new LiveFeed(async () => {
    const items = await tracker.loadItems();
    return items
      .map((item) => `${item.id}:${item.state}:${item.approvals.length}`)
      .sort()
      .join('|');
  }, pollIntervalMs);
  const decider = new ApprovalDecider({ base, verifier, tracker, edits, seal, pages, responder, onDecided: () => feed.broadcast() });

  const signInRoutes = options.login === undefined ? null : new SignInRoutes({ base, login: options.login, csrf, responder, secureFor });
  const notifications = createNotifications(options, tracker);
  const unsubscribe =
    options.dispatcher?.subscribe('verification.*', (name, payload) => {
      const event = (payload as { event?: { getRequestId?: () => string | null } } | undefined)?.event;
      const id = typeof event?.getRequestId === 'function' ? event.getRequestId() : null;
      if (id !== null) tracker.track(id);
      notifications?.onEvent(name, id);
      feed.broadcast();
    }) ?? null;

  function secureFor(request: IncomingMessage): boolean {
    return options.secureCookies ?? (request.socket as { encrypted?: boolean }).encrypted === true;
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

  function refuseForm(
    response: ServerResponse,
    body: FormBody & { ok: false },
    route: string,
    who: ConsoleIdentity | null,
    nonce: string,
  ): void {
    if (body.status === 413) responder.sendPage(response, formTooLargePage(base, route), who, nonce, []);
    else responder.send(response, body.status, 'text/plain; charset=utf-8', body.message);
  }

  async function handle(request: IncomingMessage, response: ServerResponse, next: ((error?: unknown) => void) | undefined): Promise<void> {
    const raw = (request as { originalUrl?: unknown }).originalUrl;
    const url = new URL(typeof raw === 'string' ? raw : (request.url ?? '/'), 'http://console.invalid');
    const path = url.pathname;
    if (`${path}/` === base) return responder.redirect(response, base);
    if (!path.startsWith(base)) {
      if (next !== undefined) return next();
      return responder.send(response, 404, 'text/plain; charset=utf-8', 'Not found');
    }
    const route = path.slice(base.length);
    const method = request.method ?? 'GET';

    if (route === 'assets/console.css' || route === 'assets/console.js') {
      if (method !== 'GET' && method !== 'HEAD')
        return responder.send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed', { Allow: 'GET, HEAD' });
      const css = route.endsWith('.css');
      return responder.send(
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
      if (crossSite !== null) return responder.send(response, 403, 'text/plain; charset=utf-8', crossSite);
    } else if (method !== 'GET') {
      return responder.send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed', { Allow: 'GET, POST' });
    }

    if (route === 'login' && signInRoutes !== null) return signInRoutes.signIn(request, response, existingNonce, nonce, setCookies);

    const identity = await identify(request);
    if (identity === null) {
      if (!isPost && route !== 'events' && options.login !== undefined) return responder.redirect(response, `${base}login`, setCookies);
      // Signing out of a session that already ended: nothing to revoke, the stale cookie is cleared.
      if (isPost && route === 'logout' && signInRoutes !== null) return signInRoutes.clearCookie(request, response);
      return responder.send(
        response,
        401,
        'text/html; charset=utf-8',
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in required</title></head><body><main><h1>Sign ` +
          `in required</h1><p>This console needs an authenticated approver.</p></main></body></html>`,
        setCookies.length === 0 ? {} : { 'Set-Cookie': setCookies },
      );
    }

    let fields: URLSearchParams | null = null;
    if (isPost) {
      const body = await readFormBody(request);
      if (!body.ok) return refuseForm(response, body, route, identity, nonce);
      if (!csrf.verify(existingNonce, identity.principal, body.fields.get('_csrf'))) {
        return responder.send(response, 403, 'text/plain; charset=utf-8', CSRF_REFUSED);
      }
      fields = body.fields;
    }

    if (route === 'logout' && signInRoutes !== null && fields !== null) {
      await signInRoutes.signOut(request, response);
      // The live streams this session opened end now (each stream asks for its own request).
      return feed.revalidate();
    }
    if (route === 'events' && fields === null) {
      feed.open(response, async () => (await identify(request)) !== null);
      return;
    }
    if (route === '' && fields === null) {
      const now = Date.now();
      const items = (await visible.loadVisibleItems(identity))
        .filter((item) => item.state === 'pending')
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
      return responder.sendPage(
        response,
        { status: 200, title: 'Pending approvals', current: 'pending', body: renderPendingPage(items, base, now), live: true, url: base },
        identity,
        nonce,
        setCookies,
      );
    }
    if (route === 'history' && fields === null) {
      const decided = (await visible.loadVisibleItems(identity))
        .filter((item) => item.state !== 'pending')
        .sort((a, b) => (b.resolvedAt ?? b.expiresAt ?? b.createdAt).getTime() - (a.resolvedAt ?? a.expiresAt ?? a.createdAt).getTime())
        .slice(0, HISTORY_LIMIT);
      return responder.sendPage(
        response,
        { status: 200, title: 'History', current: 'history', body: renderHistoryPage(decided, base), live: true, url: `${base}history` },
        identity,
        nonce,
        setCookies,
      );
    }
    // Every per-item route: an item this approver may not see answers exactly as an unknown id.
    const perItem = /^approvals\/([^/]+)(?:\/|$)/.exec(route);
    if (perItem !== null && (await loadVisibleItemOf(perItem[1] ?? '', identity)) === null)
      return responder.sendPage(response, notFoundPage(base, 'No approval request has this id.'), identity, nonce, setCookies);
    const valueRoute = ARGUMENT_VALUE_ROUTE.exec(route);
    if (valueRoute !== null && fields === null) {
      const segments = { id: valueRoute[1] ?? '', field: valueRoute[2] ?? '' };
      const loadItem = (id: string, who: ConsoleIdentity) => visible.loadVisibleItem(id, who);
      return answerArgumentValue({ base, responder, loadItem }, response, segments, identity, nonce, setCookies);
    }
    const match = /^approvals\/([^/]+)(?:\/(grant|reject|edit|review))?$/.exec(route);
    if (match !== null) {
      let id: string;
      try {
        id = decodeURIComponent(match[1] ?? '');
      } catch {
        return responder.sendPage(response, notFoundPage(base, 'No approval request has this id.'), identity, nonce, setCookies);
      }
      const verb = match[2] as 'grant' | 'reject' | 'edit' | 'review' | undefined;
      if (verb === 'edit' && fields === null) return editFlow.showEdit(id, response, identity, nonce, setCookies);
      if (verb === 'review' && fields !== null) return editFlow.review(id, response, identity, nonce, fields);
      if ((verb === 'grant' || verb === 'reject') && fields !== null) return decider.decide(verb, id, response, identity, nonce, fields);
      if (verb === undefined && fields === null) {
        const item = await tracker.loadItem(id);
        if (item === null)
          return responder.sendPage(response, notFoundPage(base, 'No approval request has this id.'), identity, nonce, setCookies);
        const notice = appendResetsNotice(NOTICES[url.searchParams.get('notice') ?? ''], url.searchParams, item, identity.principal, seal);
        return responder.sendPage(
          response,
          await pages.build(item, identity, nonce, 200, notice === undefined ? null : { kind: 'notice', text: notice }),
          identity,
          nonce,
          setCookies,
        );
      }
      return responder.send(response, 405, 'text/plain; charset=utf-8', 'Method not allowed', {
        Allow: verb === undefined || verb === 'edit' ? 'GET' : 'POST',
      });
    }
    return responder.sendPage(response, notFoundPage(base, 'There is no such page in this console.'), identity, nonce, setCookies);
  }

  const handler = ((request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void): void => {
    handle(request, response, next).catch(() => {
      // Never echo the failure (it may hold store details): a plain page, and the stream closed.
      if (!response.headersSent)
        responder.send(response, 503, 'text/plain; charset=utf-8', 'The approvals store did not answer; nothing was decided. Try again.');
      else response.destroy();
    });
  }) as ApprovalConsole;
  handler.close = () => {
    unsubscribe?.();
    notifications?.close();
    feed.close();
  };
  handler.track = (id) => tracker.track(id);
  handler.notify = () => feed.broadcast();
  return handler;
}

function createNotifications(options: ApprovalConsoleOptions, tracker: ApprovalTracker): ApprovalNotifications | null {
  const publicUrl = normalizePublicUrl(options.publicUrl);
  if (options.notify === undefined) return null;
  return new ApprovalNotifications({
    notify: options.notify,
    onNotifyError: options.onNotifyError,
    publicUrl,
    loadItem: (id) => tracker.loadItem(id),
  });
}
