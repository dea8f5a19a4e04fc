import {
  ApprovalPolicy,
  ToolResult,
  Type,
  VerificationContext,
  VerificationRequest,
  defineTool,
  type ToolArgs,
  type ToolContext,
  type ToolErrorCode,
  type ToolRegistry,
} from '@milpa/core';
import { VerificationError, type VerificationErrorKind } from '../errors/verification-error.js';
import type { HumanVerifier } from '../verifier/human-verifier.js';

/** Options of {@link VerificationTool}. */
export interface VerificationToolOptions {
  /** Scopes of which a caller of `resolve_verification` needs one; default `[]` (open). `request_verification` never needs a scope. */
  readonly resolveScopes?: readonly string[];
}

/** The data of a handler-level error: which argument is at fault and why. */
export interface VerificationToolErrorData {
  /** The argument at fault, e.g. `request_id`. */
  readonly field: string;
  /** What is wrong with it (the same text as the result's `error`). */
  readonly message: string;
}

/** The data of a successful `request_verification` call. */
export interface VerificationRequestData {
  /** The subject as opened (trimmed). */
  readonly subject: string;
  /** The approval policy. */
  readonly policy: ApprovalPolicy;
  /** The correlation id to echo back on `resolve_verification`. */
  readonly request_id: string;
  /** `'passed'`, only for the `auto` policy, which passes at once. */
  readonly status?: 'passed';
}

const REQUEST_DESCRIPTION =
  'Open a verification request for a subject. ' +
  'Returns a pending confirmation carrying the request_id needed to resolve it later via resolve_verification.';
const RESOLVE_DESCRIPTION = 'Resolve a pending verification request by request_id with a grant|reject decision from a principal.';

const POLICY_MESSAGE = `Value must be one of: ${ApprovalPolicy.values.join(', ')}`;

const requestInput = Type.Object({
  subject: Type.String({ description: 'Opaque id of what needs verifying, e.g. "gate:report.publish".' }),
  policy: Type.Optional(
    Type.Unsafe<ApprovalPolicy>({
      type: 'string',
      enum: [...ApprovalPolicy.values],
      default: 'single',
      description: 'How many approvals the request needs: single (1), dual (2 distinct principals), quorum (as configured), auto (none).',
    }),
  ),
  requested_by: Type.Optional(Type.String({ description: 'Opaque principal opening the request; defaults to the caller.' })),
  request_id: Type.Optional(Type.String({ description: 'Correlation id to use for this request; omit to generate one.' })),
});

const resolveInput = Type.Object({
  request_id: Type.String({ description: 'The request_id returned by request_verification.' }),
  decision: Type.Unsafe<'grant' | 'reject'>({ type: 'string', enum: ['grant', 'reject'], description: 'The verdict.' }),
  principal: Type.String({ description: 'Opaque principal resolving the request; must be the caller unless the caller holds "*".' }),
  subject: Type.Optional(Type.String({ description: 'The subject being resolved; when given it must match the opened request.' })),
  reason: Type.Optional(Type.String({ description: 'Justification for the decision.' })),
  changes: Type.Optional(
    Type.Record(Type.String(), Type.Unknown(), {
      description:
        "Only with decision=grant, on a request that holds a tool call for approval: replacements of the call's input fields " +
        "(field name → new value). They are checked against the tool's input schema before the call runs.",
    }),
  ),
});

/** Which argument a verifier refusal is about. */
const REFUSAL_FIELDS: Readonly<Record<VerificationErrorKind, string>> = Object.freeze({
  not_found: 'request_id',
  already_resolved: 'request_id',
  expired: 'request_id',
  duplicate_id: 'request_id',
  invalid_request: 'request_id',
  invalid_changes: 'changes',
  subject_mismatch: 'subject',
  self_approval: 'principal',
  duplicate_approval: 'principal',
  too_many_pending: 'request_id',
});

/**
 * Exposes a {@link HumanVerifier} as two tools that run through the registry's ordinary pipeline:
 * `request_verification` opens a request and returns its `request_id` (it can never decide
 * anything), `resolve_verification` grants or rejects it. Both are `mutating: true,
 * requiresConfirmation: false`: the request → resolve round trip already is the confirmation
 * protocol, so the registry's confirm-token gate would only add calls (a channel policy that
 * confirms every mutating tool, like `telegram`, still gates both). Because they are separate tools,
 * `resolveScopes` can restrict resolving without touching requesting.
 *
 * The resolving `principal` must be the calling context's principal unless that context holds
 * `'*'`; likewise `requested_by`. Handler-level errors are `ToolResult.failure(code, message,
 * { field, message })`.
 *
 * @example
 * new VerificationTool(new HumanVerifier(), { resolveScopes: ['verification:resolve'] }).register(registry);
 * const opened = await registry.call('request_verification', { subject: 'gate:report.publish' }, worker);
 * await registry.call('resolve_verification', {
 *   request_id: opened.data.request_id, decision: 'grant', principal: 'agent:reviewer',
 * }, reviewer);
 */
export class VerificationTool {
  /** Name of the request-phase tool. */
  static readonly REQUEST_NAME = 'request_verification';
  /** Name of the resolve-phase tool. */
  static readonly RESOLVE_NAME = 'resolve_verification';

  readonly #verifier: HumanVerifier;
  readonly #resolveScopes: readonly string[];

  /** Wraps `verifier`; `options.resolveScopes` applies to `resolve_verification` only. */
  constructor(verifier: HumanVerifier, options: VerificationToolOptions = {}) {
    this.#verifier = verifier;
    this.#resolveScopes = Object.freeze([...(options.resolveScopes ?? [])]);
  }

  /** Registers `request_verification` and `resolve_verification` on any registry implementing core's `ToolRegistry`. */
  register(registry: ToolRegistry): void {
    registry.register(
      defineTool({
        name: VerificationTool.REQUEST_NAME,
        description: REQUEST_DESCRIPTION,
        input: requestInput,
        mutating: true,
        requiresConfirmation: false,
        handler: (args, { context }) => this.handleRequest(args, context),
      }),
    );
    registry.register(
      defineTool({
        name: VerificationTool.RESOLVE_NAME,
        description: RESOLVE_DESCRIPTION,
        input: resolveInput,
        scopes: this.#resolveScopes,
        mutating: true,
        requiresConfirmation: false,
        handler: (args, { context }) => this.handleResolve(args, context),
      }),
    );
  }

  /**
   * Handles `request_verification`: opens a request for `subject` (trimmed) and returns
   * `ToolResult.confirmation` with data `{subject, policy, request_id}` and the message naming the
   * request_id. A non-empty `request_id` is used verbatim, else a UUID v4 is generated;
   * `requested_by` defaults to the context's principal. The `auto` policy passes at once and returns
   * a success with `status: 'passed'` instead.
   *
   * Without `context` (direct use) there is no caller check. Errors: `VALIDATION_ERROR` for a blank
   * subject, an unknown policy, a blank or padded request_id or a non-string argument; `FORBIDDEN`
   * for a `requested_by` other than the caller; `CONFLICT` for a request_id in use.
   */
  async handleRequest(args: ToolArgs, context?: ToolContext): Promise<ToolResult> {
    const subject = readString(args, 'subject');
    if (subject instanceof ToolResult) return subject;
    if (subject === null || subject.trim() === '') return invalid('subject', 'subject is required');
    const policy = args['policy'] ?? 'single';
    if (!ApprovalPolicy.isApprovalPolicy(policy)) return invalid('policy', `policy: ${POLICY_MESSAGE}`);
    const requestedByArg = readString(args, 'requested_by');
    if (requestedByArg instanceof ToolResult) return requestedByArg;
    const requestId = readString(args, 'request_id');
    if (requestId instanceof ToolResult) return requestId;
    if (requestId !== null && requestId !== '' && requestId.trim() !== requestId) {
      return invalid('request_id', 'request_id must not be blank or padded with whitespace');
    }

    const requestedBy = requestedByArg !== null && requestedByArg.trim() !== '' ? requestedByArg.trim() : null;
    const forbidden = checkCaller(context, requestedBy, 'requested_by', 'open a request');
    if (forbidden !== null) return forbidden;

    const trimmed = subject.trim();
    const owner = requestedBy ?? context?.principal ?? null;
    const request =
      requestId !== null && requestId !== ''
        ? new VerificationRequest(trimmed, policy, {}, owner, requestId)
        : VerificationRequest.withGeneratedId(trimmed, policy, {}, owner);
    const id = request.id ?? '';

    let verdict;
    try {
      verdict = await this.#verifier.verify(request, new VerificationContext(owner));
    } catch (error) {
      return refusal(error);
    }
    if (verdict.isFinal()) {
      const data: VerificationRequestData = { subject: trimmed, policy, request_id: id, status: 'passed' };
      return ToolResult.success(data, `Verification for '${trimmed}' passed automatically (policy: ${policy}).`, {
        verification_status: verdict.status,
      });
    }
    const data: VerificationRequestData = { subject: trimmed, policy, request_id: id };
    return ToolResult.confirmation(
      `Verification required for '${trimmed}' (policy: ${policy}). ` +
        `Resolve by calling resolve_verification with decision=grant|reject, a principal, and request_id=${id}.`,
      data,
      'verify',
      trimmed,
      trimmed,
    );
  }

  /**
   * Handles `resolve_verification`: grants or rejects the request `request_id` as `principal` and
   * returns a success whose data is the verdict's JSON (`{status, reason, verifier, principal,
   * missing, metadata}`) and meta `{verification_status}`. The message names `subject` when given,
   * else the request_id (display only: the verifier uses the stored request). A reject without a
   * reason gets `'rejected'`. A grant that leaves a `dual`/`quorum` request pending returns status
   * `pending` with metadata `{approvals, required}`.
   *
   * Checks, in order: request_id, decision, principal (each `VALIDATION_ERROR`), then the caller
   * (`FORBIDDEN` unless `principal` is the context's principal or the context holds `'*'`; skipped
   * without a context), then the verifier's refusals (`NOT_FOUND`, `CONFLICT`, `FORBIDDEN`).
   */
  async handleResolve(args: ToolArgs, context?: ToolContext): Promise<ToolResult> {
    const requestIdArg = readString(args, 'request_id');
    if (requestIdArg instanceof ToolResult) return requestIdArg;
    const requestId = requestIdArg?.trim() ?? '';
    if (requestId === '') return invalid('request_id', 'request_id is required');
    const decision = typeof args['decision'] === 'string' ? args['decision'].trim() : '';
    if (decision !== 'grant' && decision !== 'reject') return invalid('decision', 'decision must be grant|reject');
    const principalArg = readString(args, 'principal');
    if (principalArg instanceof ToolResult) return principalArg;
    const principal = principalArg?.trim() ?? '';
    if (principal === '') return invalid('principal', 'principal is required');
    const subjectArg = readString(args, 'subject');
    if (subjectArg instanceof ToolResult) return subjectArg;
    const reason = readString(args, 'reason');
    if (reason instanceof ToolResult) return reason;
    const changes = args['changes'];
    if (changes !== undefined && changes !== null) {
      if (typeof changes !== 'object' || Array.isArray(changes))
        return invalid('changes', 'changes must be an object of field name → new value');
      if (decision !== 'grant') return invalid('changes', 'changes can only come with decision=grant');
    }

    const forbidden = checkCaller(context, principal, 'principal', 'resolve');
    if (forbidden !== null) return forbidden;

    const subject = subjectArg !== null && subjectArg.trim() !== '' ? subjectArg.trim() : null;
    // Only the id (and the subject, when given, as a guard) reach the verifier; the store holds the
    // real subject, policy and requester, so nothing here is fabricated.
    const request =
      subject !== null ? new VerificationRequest(subject, 'single', {}, null, requestId) : VerificationRequest.forResolution(requestId);
    let verdict;
    try {
      verdict =
        decision === 'grant'
          ? await this.#verifier.grant(request, principal, reason, {
              changes: (changes ?? null) as Readonly<Record<string, unknown>> | null,
            })
          : await this.#verifier.reject(request, principal, reason ?? 'rejected');
    } catch (error) {
      return refusal(error);
    }

    const display = subject ?? requestId;
    const message = verdict.isPending()
      ? `Verification for '${display}' has ${String(verdict.metadata['approvals'])} of ${String(verdict.metadata['required'])} ` +
        'required approvals; it stays pending.'
      : verdict.isSatisfied()
        ? `Verification granted for '${display}'.`
        : `Verification rejected for '${display}'.`;
    return ToolResult.success(verdict.toJSON(), message, { verification_status: verdict.status });
  }
}

function invalid(field: string, message: string): ToolResult<VerificationToolErrorData> {
  return failure('VALIDATION_ERROR', field, message);
}

function failure(code: ToolErrorCode, field: string, message: string): ToolResult<VerificationToolErrorData> {
  return ToolResult.failure(code, message, { field, message });
}

/** The string argument `key`, null when absent, or a VALIDATION_ERROR result when it is not a string. */
function readString(args: ToolArgs, key: string): string | null | ToolResult {
  const value = args[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') return invalid(key, `${key} must be a string`);
  return value;
}

/**
 * Without a context there is no caller to compare with (direct use). Otherwise `claimed` must be the
 * context's own principal unless the context holds `'*'`: a caller may not speak for someone else.
 */
function checkCaller(context: ToolContext | undefined, claimed: string | null, field: string, action: string): ToolResult | null {
  if (context === undefined || claimed === null) return null;
  if (claimed === context.principal || context.scopes.includes('*')) return null;
  return failure(
    'FORBIDDEN',
    field,
    `${field} '${claimed}' is not the calling principal '${context.principal ?? '(none)'}'; ` +
      `only a context holding '*' may ${action} on behalf of another principal.`,
  );
}

function refusal(error: unknown): ToolResult {
  if (!VerificationError.isVerificationError(error)) throw error;
  return failure(error.code, REFUSAL_FIELDS[error.kind], error.message);
}
