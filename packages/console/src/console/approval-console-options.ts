import type { IncomingMessage } from 'node:http';
import type {
  ApprovalStore,
  EventDispatcher,
  GovernedToolRegistry,
  InvocationHistoryStore,
  JsonSchema,
  VerificationStore,
} from '@milpa/core';
import type { HumanVerifier } from '@milpa/verification';
import type { ApprovalNotifier } from '../notify/approval-notification.js';
import type { NotifyErrorHandler } from '../notify/approval-notifications.js';
import type { ApprovalItem } from './approval-item.js';

/** Who is using the console, as the host's {@link ConsoleAuthenticate} establishes it. */
export interface ConsoleIdentity {
  /** The approver's principal: recorded on every grant and reject, compared with the requester. */
  readonly principal: string;
}

/**
 * Establishes who sent a request (a session cookie, a bearer token, a header set by a trusted
 * proxy). Answer null (or throw) when the request is not authenticated: the console then answers
 * 401, or sends the browser to its sign-in page when `login` is set. This is the only source of
 * the approver's identity; nothing in a form or query is ever taken as one.
 */
export type ConsoleAuthenticate = (
  request: IncomingMessage,
) => ConsoleIdentity | null | undefined | Promise<ConsoleIdentity | null | undefined>;

/**
 * An optional sign-in page backed by server-side sessions: `POST <basePath>login` hands the token
 * to `signIn`, which begins a session and answers its opaque id; the console puts that id (never
 * the token) in an `HttpOnly`, `SameSite=Strict` cookie named `cookieName`, which the host's
 * `authenticate` then resolves. `POST <basePath>logout` hands the id to `signOut`, which revokes
 * the session, and clears the cookie. {@link tokenAuthentication} builds both halves.
 */
export interface ConsoleLogin {
  /** The cookie the session id is kept in. */
  readonly cookieName: string;
  /**
   * Begins a session when `token` signs someone in and answers its new id for the cookie (a fresh
   * one at every sign-in, at most 512 characters of `A-Z a-z 0-9 . _ ~ -`, never the token itself:
   * the console refuses that), or null to refuse.
   */
  signIn(token: string): string | null | Promise<string | null>;
  /** Revokes the session whose id is `sessionId`, so its cookie signs nobody in again. */
  signOut(sessionId: string): void | Promise<void>;
  /** How long the browser keeps the cookie, in seconds; omitted, until the browser closes. */
  readonly maxAgeSeconds?: number;
}

/**
 * Decides whether `approver` may see and decide `item`: answer true to allow. Anything else, a
 * rejected promise or a throw refuses (fail closed). A refused approver finds the item in neither
 * the pending list nor the history, and its pages and forms answer the same 404 as an unknown id.
 */
export type ConsoleAuthorize = (approver: ConsoleIdentity, item: ApprovalItem) => boolean | Promise<boolean>;

/**
 * Where the console reads a tool's input schema: the `getDefinition` of core's
 * `GovernedToolRegistry` (a `@milpa/tool-runtime` `ToolRegistry` fits).
 */
export type ConsoleToolCatalog = Pick<GovernedToolRegistry, 'getDefinition'>;

/** Checks arguments against a JSON Schema (a `@milpa/tool-runtime` `SchemaValidator` fits). */
export interface ConsoleSchemaValidator {
  /** Validates `args` against `schema`; `errors` are the messages shown to the approver. */
  validate(args: unknown, schema: JsonSchema): { readonly valid: boolean; readonly errors: readonly string[] };
}

/** Options of {@link createApprovalConsole}. */
export interface ApprovalConsoleOptions {
  /** The verifier the approval gate asks; decisions go through it (and its dispatcher). */
  readonly verifier?: HumanVerifier;
  /** A verification store instead of a verifier (a `HumanVerifier` over it is made for you). */
  readonly store?: VerificationStore;
  /** Who is asking; see {@link ConsoleAuthenticate}. Required. */
  readonly authenticate: ConsoleAuthenticate;
  /** Where the console is mounted, e.g. `/approvals`; default `/`. */
  readonly basePath?: string;
  /**
   * The dispatcher the verifier dispatches on: the console learns of approvals opened and decided
   * in this process from `verification.*` events and updates open pages at once.
   */
  readonly dispatcher?: EventDispatcher;
  /**
   * Lists the ids of the verification requests to show (for a store shared with other processes,
   * where requests open without this process's dispatcher seeing them). Polled while pages are open.
   */
  readonly listRequestIds?: () => Iterable<string> | Promise<Iterable<string>>;
  /** Where the run's invocation history is read for the detail view. */
  readonly history?: InvocationHistoryStore;
  /**
   * The approval store the runtime holds calls in (the registry's `approvalStore`): the detail view
   * of a granted call then shows whether the agent resumed it and how it ended (succeeded, failed
   * with its error code, or expired unresumed). Share a SQLite or Redis store to see calls held by
   * other processes.
   */
  readonly approvals?: ApprovalStore;
  /** Tool schemas, for editing input fields before a grant (needs `validator` too). */
  readonly tools?: ConsoleToolCatalog;
  /** Validates edited fields against the tool's schema on the server. */
  readonly validator?: ConsoleSchemaValidator;
  /**
   * Which input fields approvers may edit for a tool: a list of names (narrowed to the editable
   * declared ones), or null for none. Default: every declared string, number, integer and boolean
   * field, when `tools` and `validator` are given. A secret field (by schema or name) may only be
   * set, and is never shown afterwards.
   */
  readonly editableFields?: (tool: string) => readonly string[] | null;
  /**
   * Argument names that are secret besides the built-in ones (`api_key`, `password`, `token`, …):
   * pass the same list as the registry's `sensitiveFields`, so a value an approver sets in such a
   * field is hidden like any secret (typed in a password box, never shown afterwards).
   */
  readonly sensitiveFields?: readonly string[];
  /** An optional sign-in page; see {@link ConsoleLogin}. */
  readonly login?: ConsoleLogin;
  /** Who may see and decide which approval; see {@link ConsoleAuthorize}. Default: every approver, every item. */
  readonly authorize?: ConsoleAuthorize;
  /**
   * Key for the CSRF tokens, the sealed edits between review and grant, and proposal fingerprints
   * (at least 16 bytes). Default: random per console; give the same one to every process that
   * serves the page behind one address.
   */
  readonly secret?: string | Uint8Array;
  /** Further origins whose form posts are accepted (e.g. the public origin behind a proxy). */
  readonly allowedOrigins?: readonly string[];
  /** Mark cookies `Secure`; default: when the request came over TLS. */
  readonly secureCookies?: boolean;
  /** How often open pages check the store for changes made elsewhere; default 2000 ms. */
  readonly pollIntervalMs?: number;
  /** The heading of every page; default `Milpa approvals`. */
  readonly title?: string;
  /** How many request ids the console remembers (oldest forgotten first); default 10,000. */
  readonly maxTracked?: number;
  /**
   * Called when an approval is opened, a grant is recorded that still needs more approvals, or it is
   * granted or rejected (needs `dispatcher`); see {@link ApprovalNotifier} and `webhookNotifier`.
   * Delivered one at a time, after the decision and off its path: a slow or failing notifier never
   * delays or fails a decision. At most 100 notifications wait; further ones are dropped and reported
   * to `onNotifyError`.
   */
  readonly notify?: ApprovalNotifier;
  /** Receives what failed while notifying (the notifier's error, a dropped notification); default: ignored. */
  readonly onNotifyError?: NotifyErrorHandler;
  /**
   * The console's public address, e.g. `https://ops.example.com/approvals/`: notifications link to
   * `<publicUrl>approvals/<id>`. Without it they carry no link.
   */
  readonly publicUrl?: string;
}
