import {
  ApprovalPolicy,
  MilpaError,
  VerificationApprovalRecordedEvent,
  VerificationEvents,
  VerificationGrantedEvent,
  VerificationRejectedEvent,
  VerificationRequest,
  VerificationRequestedEvent,
  VerificationResult,
  type EventDispatcher,
  type ToolErrorCode,
  type VerificationContext,
  type VerificationDecision,
  type VerificationRecord,
  type VerificationRefusal,
  type VerificationStore,
  type Verifier,
} from '@milpa/core';
import { VerificationError } from '../errors/verification-error.js';
import { InMemoryVerificationStore } from '../store/in-memory-verification-store.js';

/** Options of {@link HumanVerifier}. */
export interface HumanVerifierOptions {
  /**
   * Receives `verification.requested`, `.approval_recorded`, `.granted` and `.rejected` as
   * `{ event }`; none when omitted.
   */
  readonly dispatcher?: EventDispatcher;
  /** Where pending requests live; default a new {@link InMemoryVerificationStore}. */
  readonly store?: VerificationStore;
  /** Grants from distinct principals a `quorum` request needs; a positive integer, default 2. */
  readonly quorum?: number;
  /**
   * Milliseconds after which a pending request can no longer be resolved; default never (the
   * default store then holds at most 10,000 such requests pending at once).
   */
  readonly ttlMs?: number;
}

/** Options of {@link HumanVerifier.grant}. */
export interface HumanVerifierGrantOptions {
  /**
   * Replacements of input fields of the held call this request is about (an approval gate's
   * request): the grant approves the call with these values instead. Plain JSON data; an empty
   * object is no change. A grant whose changes differ from the ones earlier grants approved starts
   * the approvals over, since those grants approved other arguments.
   */
  readonly changes?: Readonly<Record<string, unknown>> | null;
}

/** The store refusals as `ToolErrorCode`s; see {@link HumanVerifier.grant} for the reasoning. */
const REFUSAL_CODES: Readonly<Record<VerificationRefusal, ToolErrorCode>> = Object.freeze({
  not_found: 'NOT_FOUND',
  already_resolved: 'CONFLICT',
  expired: 'CONFLICT',
  subject_mismatch: 'CONFLICT',
  self_approval: 'FORBIDDEN',
  duplicate_approval: 'CONFLICT',
});

/** The default quorum: the smallest count that still needs two different people. */
const DEFAULT_QUORUM = 2;

/**
 * The reference {@link Verifier} for decisions a person (or another agent) has to make. `verify()`
 * opens the request in a {@link VerificationStore} and returns PENDING; `grant()` and `reject()`
 * resolve it later by id. The store enforces the approval policy:
 *
 * - `single` passes on one grant; `dual` needs grants from two distinct principals; `quorum` from
 *   `quorum` distinct principals. Until then a grant returns PENDING with metadata
 *   `{ approvals, required }`.
 * - `auto` passes at once: `verify()` stores and returns the pass (principal null) and dispatches
 *   `verification.requested` then `verification.granted`.
 * - The requester (`request.requestedBy`, else the verify context's principal) cannot grant its own
 *   request. A reject by anyone, including the requester, is final.
 *
 * Refusals reject with a {@link VerificationError} and change nothing. Events are dispatched only
 * when something happened: `verification.requested` on open, `verification.approval_recorded` on a
 * grant that leaves the request pending, `verification.granted` / `verification.rejected` only on a
 * final verdict; the request in every event is the stored one,
 * with its real subject, policy and requester.
 *
 * @example
 * const verifier = new HumanVerifier({ dispatcher, ttlMs: 15 * 60_000 });
 * const request = VerificationRequest.withGeneratedId('gate:report.publish', 'dual', {}, 'agent:worker');
 * await verifier.verify(request);                                             // pending
 * await verifier.grant(request, 'user:ana');                                  // pending {approvals: 1, required: 2}
 * await verifier.grant(VerificationRequest.forResolution(request.id!), 'user:luis'); // passed
 */
export class HumanVerifier implements Verifier {
  /** The verifier name written into every result. */
  static readonly NAME = 'human_verifier';

  readonly #dispatcher: EventDispatcher | null;
  readonly #store: VerificationStore;
  readonly #quorum: number;
  readonly #ttlMs: number | null;

  /**
   * Creates a verifier; without a store it keeps requests in a new {@link InMemoryVerificationStore}.
   * @throws MilpaError `INVALID_ARGUMENT` for a quorum that is not a positive integer or a ttlMs that is not positive.
   */
  constructor(options: HumanVerifierOptions = {}) {
    const quorum = options.quorum ?? DEFAULT_QUORUM;
    if (!Number.isInteger(quorum) || quorum < 1) {
      throw new MilpaError(`HumanVerifier quorum must be a positive integer, got ${String(quorum)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    const ttlMs = options.ttlMs ?? null;
    if (ttlMs !== null && !(typeof ttlMs === 'number' && Number.isFinite(ttlMs) && ttlMs > 0)) {
      throw new MilpaError(`HumanVerifier ttlMs must be a positive number of milliseconds, got ${String(ttlMs)}.`, {
        code: 'INVALID_ARGUMENT',
      });
    }
    this.#dispatcher = options.dispatcher ?? null;
    this.#store = options.store ?? new InMemoryVerificationStore();
    this.#quorum = quorum;
    this.#ttlMs = ttlMs;
  }

  /** The store holding this verifier's requests. */
  get store(): VerificationStore {
    return this.#store;
  }

  /**
   * Opens `request` and returns PENDING (verifier `human_verifier`), or, for the `auto` policy, a
   * pass. The requester is `request.requestedBy`, else `context.principal`.
   *
   * @throws VerificationError `VALIDATION_ERROR` (`invalid_request`) when the request has no subject
   *   or no id; `CONFLICT` (`duplicate_id`) when a request with that id exists; `RATE_LIMITED`
   *   (`too_many_pending`) when the store holds as many pending requests without a deadline as it
   *   may (`InMemoryVerificationStore` `maxPending`, 10,000 by default).
   */
  async verify(request: VerificationRequest, context?: VerificationContext): Promise<VerificationResult> {
    if (request.subject === null) {
      throw new VerificationError(
        'HumanVerifier.verify() needs a request with a subject; VerificationRequest.forResolution() is for grant() and reject().',
        { code: 'VALIDATION_ERROR', kind: 'invalid_request', requestId: request.id },
      );
    }
    if (request.id === null || request.id.trim() === '') {
      throw new VerificationError(
        'HumanVerifier.verify() needs a request with an id; build it with VerificationRequest.withGeneratedId().',
        { code: 'VALIDATION_ERROR', kind: 'invalid_request', requestId: null },
      );
    }
    const stored =
      request.requestedBy === null && (context?.principal ?? null) !== null ? withRequester(request, context?.principal ?? null) : request;
    const automatic = ApprovalPolicy.isAutomatic(stored.policy);
    const now = new Date(Date.now());
    const result = automatic ? VerificationResult.pass(HumanVerifier.NAME) : VerificationResult.pending(HumanVerifier.NAME);
    const record: VerificationRecord = Object.freeze({
      id: request.id,
      request: stored,
      createdAt: now,
      expiresAt: this.#ttlMs === null || automatic ? null : new Date(now.getTime() + this.#ttlMs),
      requiredApprovals: this.#requiredApprovals(stored.policy),
      approvals: Object.freeze([]),
      result: automatic ? result : null,
      resolvedAt: automatic ? now : null,
    });
    if (!(await this.#store.open(record))) {
      throw new VerificationError(`Verification request '${request.id}' already exists.`, {
        code: 'CONFLICT',
        kind: 'duplicate_id',
        requestId: request.id,
      });
    }
    await this.#dispatcher?.dispatch(VerificationEvents.REQUESTED, { event: new VerificationRequestedEvent(stored) });
    if (automatic) {
      await this.#dispatcher?.dispatch(VerificationEvents.GRANTED, { event: new VerificationGrantedEvent(stored, result) });
    }
    return result;
  }

  /**
   * Records a grant by `principal` on the request with `request.id`. Returns PASSED (verifier
   * `human_verifier`, that principal, metadata `{reason}` when a reason is given, else `{}`) once
   * the policy's approvals are complete, and dispatches `verification.granted`; before that,
   * returns PENDING with metadata `{ approvals, required }` and dispatches
   * `verification.approval_recorded` (a {@link VerificationApprovalRecordedEvent}).
   *
   * Only `request.id` (and `request.subject`, when not null) are read: the store holds the real
   * subject, policy and requester, so `VerificationRequest.forResolution(id)` is enough.
   *
   * With `options.changes`, the grant approves the request with those input fields replaced (see
   * {@link HumanVerifierGrantOptions}); the verdict's metadata then carries `changes`.
   *
   * @throws VerificationError, changing nothing:
   *   `NOT_FOUND` unknown id (or swept after its retention);
   *   `CONFLICT` already resolved, expired (the deadline passed; open a new request), a subject that
   *   differs from the stored one, or a second grant by the same principal;
   *   `FORBIDDEN` the requester granting its own request;
   *   `VALIDATION_ERROR` a request without an id, a blank principal, or changes that are not a
   *   plain object of JSON data.
   */
  async grant(
    request: VerificationRequest,
    principal: string,
    reason: string | null = null,
    options: HumanVerifierGrantOptions = {},
  ): Promise<VerificationResult> {
    const id = requireId(request);
    requirePrincipal(id, principal);
    const changes = readChanges(id, options.changes);
    // One principal, one spelling: 'alice' and ' alice ' must not count as two approvers.
    principal = principal.trim();
    const metadata = { ...(reason !== null ? { reason } : {}), ...(changes !== null ? { changes } : {}) };
    const result = VerificationResult.pass(HumanVerifier.NAME, principal, metadata);
    const record = await this.#decide(id, {
      kind: 'grant',
      principal,
      reason,
      at: new Date(Date.now()),
      subject: request.subject,
      result,
      ...(changes !== null ? { changes } : {}),
    });
    if (record.result === null) {
      const approval = record.approvals.at(-1);
      if (approval !== undefined) {
        await this.#dispatcher?.dispatch(VerificationEvents.APPROVAL_RECORDED, {
          event: new VerificationApprovalRecordedEvent(record.request, approval, record.approvals.length, record.requiredApprovals),
        });
      }
      return VerificationResult.pending(HumanVerifier.NAME, {
        approvals: record.approvals.length,
        required: record.requiredApprovals,
      });
    }
    await this.#dispatcher?.dispatch(VerificationEvents.GRANTED, { event: new VerificationGrantedEvent(record.request, result) });
    return result;
  }

  /**
   * Rejects the request with `request.id`: returns FAILED with that reason, verifier
   * `human_verifier` and principal, `missing: []`, `metadata: {}`, and dispatches
   * `verification.rejected`. A reject is final, whatever the policy and the grants so far.
   *
   * @throws VerificationError as {@link HumanVerifier.grant}, except that the requester may reject
   *   (withdraw) its own request and a principal that granted may still reject.
   */
  async reject(request: VerificationRequest, principal: string, reason: string): Promise<VerificationResult> {
    const id = requireId(request);
    requirePrincipal(id, principal);
    principal = principal.trim();
    const result = VerificationResult.fail(reason, [], HumanVerifier.NAME, {}, principal);
    const record = await this.#decide(id, {
      kind: 'reject',
      principal,
      reason,
      at: new Date(Date.now()),
      subject: request.subject,
      result,
    });
    await this.#dispatcher?.dispatch(VerificationEvents.REJECTED, { event: new VerificationRejectedEvent(record.request, result) });
    return result;
  }

  async #decide(id: string, decision: VerificationDecision): Promise<VerificationRecord> {
    const outcome = await this.#store.decide(id, decision);
    if (outcome.status !== 'refused') return outcome.record;
    throw new VerificationError(describeRefusal(outcome.refusal, id, decision, outcome.record), {
      code: REFUSAL_CODES[outcome.refusal],
      kind: outcome.refusal,
      requestId: id,
    });
  }

  #requiredApprovals(policy: VerificationRequest['policy']): number {
    if (policy === 'quorum') return this.#quorum;
    return ApprovalPolicy.requiredApprovals(policy);
  }
}

function withRequester(request: VerificationRequest, requestedBy: string | null): VerificationRequest {
  return new VerificationRequest(request.subject, request.policy, request.payload, requestedBy, request.id);
}

function requireId(request: VerificationRequest): string {
  if (request.id === null || request.id.trim() === '') {
    throw new VerificationError('A verification request needs an id to be resolved; use VerificationRequest.forResolution(id).', {
      code: 'VALIDATION_ERROR',
      kind: 'invalid_request',
      requestId: null,
    });
  }
  return request.id;
}

/** The grant's changes as a plain copy, null for none or an empty object. */
function readChanges(id: string, changes: Readonly<Record<string, unknown>> | null | undefined): Readonly<Record<string, unknown>> | null {
  if (changes === undefined || changes === null) return null;
  const invalid = (): VerificationError =>
    new VerificationError(
      `The changes granted on verification request '${id}' must be a plain object of JSON data (field name → new value).`,
      {
        code: 'VALIDATION_ERROR',
        kind: 'invalid_changes',
        requestId: id,
      },
    );
  if (typeof changes !== 'object' || Array.isArray(changes)) throw invalid();
  const prototype: unknown = Object.getPrototypeOf(changes);
  if (prototype !== Object.prototype && prototype !== null) throw invalid();
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(changes));
  } catch {
    throw invalid();
  }
  if (!isSameJson(copy, changes)) throw invalid();
  const plain = copy as Record<string, unknown>;
  return Object.keys(plain).length === 0 ? null : plain;
}

/** True when `value` survived a JSON round trip unchanged (no undefined, functions, dates, NaN…). */
function isSameJson(copy: unknown, value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return copy === value;
  if (typeof value === 'number') return Number.isFinite(value) && copy === value;
  if (Array.isArray(value))
    return Array.isArray(copy) && copy.length === value.length && value.every((item, index) => isSameJson(copy[index], item));
  if (typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (typeof copy !== 'object' || copy === null || Array.isArray(copy)) return false;
  const keys = Object.keys(value);
  return (
    keys.length === Object.keys(copy).length &&
    keys.every((key) => isSameJson((copy as Record<string, unknown>)[key], (value as Record<string, unknown>)[key]))
  );
}

function requirePrincipal(id: string, principal: string): void {
  if (typeof principal !== 'string' || principal.trim() === '') {
    throw new VerificationError(`Resolving verification request '${id}' needs a non-empty principal.`, {
      code: 'VALIDATION_ERROR',
      kind: 'invalid_request',
      requestId: id,
    });
  }
}

function describeRefusal(
  refusal: VerificationRefusal,
  id: string,
  decision: VerificationDecision,
  record: VerificationRecord | null,
): string {
  switch (refusal) {
    case 'not_found':
      return `Verification request '${id}' does not exist.`;
    case 'already_resolved':
      return `Verification request '${id}' is already resolved (${record?.result?.status ?? 'final'}).`;
    case 'expired':
      return `Verification request '${id}' expired at ${record?.expiresAt?.toISOString() ?? 'its deadline'}; open a new request.`;
    case 'subject_mismatch':
      return `Verification request '${id}' is for subject '${record?.request.subject ?? ''}', not '${decision.subject ?? ''}'.`;
    case 'self_approval':
      return `Principal '${decision.principal}' opened verification request '${id}' and cannot grant it.`;
    case 'duplicate_approval':
      return (
        `Principal '${decision.principal}' has already granted verification request '${id}'; ` +
        `policy '${record?.request.policy ?? 'single'}' needs ${record?.requiredApprovals ?? 1} grants from distinct principals ` +
        `(${record?.approvals.length ?? 0} so far).`
      );
  }
}
