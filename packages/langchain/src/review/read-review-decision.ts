import { canonicalJson, isRecord } from '@milpa/core/kit';

/** A resume value read against the call it resumes. */
export type ReviewDecisionReading =
  | { readonly kind: 'approve' }
  | { readonly kind: 'reject'; readonly message: string | null }
  | { readonly kind: 'refused'; readonly refusal: 'invalid_decision' | 'call_mismatch' | 'arguments_changed'; readonly message: string };

/**
 * Reads the run's resume value for the paused call `toolCallId` with arguments `args`. Only an
 * `approve` naming this very call id — and, if it repeats arguments, these very arguments — is an
 * approval. A reject is a reject whatever it names. Everything else (no single decision, an edit,
 * another call id, other arguments, an unknown type) is refused: nothing runs.
 */
export function readReviewDecision(value: unknown, toolCallId: string, args: Readonly<Record<string, unknown>>): ReviewDecisionReading {
  const decisions = isRecord(value) ? value['decisions'] : undefined;
  if (!Array.isArray(decisions) || decisions.length !== 1 || !isRecord(decisions[0])) {
    return { kind: 'refused', refusal: 'invalid_decision', message: 'The review answer is not exactly one decision; nothing ran.' };
  }
  const decision = decisions[0];
  if (decision['type'] === 'reject') {
    return {
      kind: 'reject',
      message: typeof decision['message'] === 'string' && decision['message'].trim() !== '' ? decision['message'] : null,
    };
  }
  if (decision['type'] === 'edit') {
    return {
      kind: 'refused',
      refusal: 'arguments_changed',
      message:
        'The reviewer edited the call; an edit never approves changed arguments, so nothing ran. ' +
        'Make a new call with the arguments you mean.',
    };
  }
  if (decision['type'] !== 'approve') {
    return {
      kind: 'refused',
      refusal: 'invalid_decision',
      message: `The review decision '${String(decision['type'])}' is neither approve nor reject; nothing ran.`,
    };
  }
  if (decision['tool_call_id'] !== toolCallId) {
    return { kind: 'refused', refusal: 'call_mismatch', message: 'The approval does not name this tool call; nothing ran.' };
  }
  const approved = decision['args'] === undefined ? undefined : canonicalJson(decision['args']);
  if (approved !== undefined && (approved === null || approved !== canonicalJson(args))) {
    return {
      kind: 'refused',
      refusal: 'arguments_changed',
      message: 'The approval is for other arguments than this call has; nothing ran.',
    };
  }
  return { kind: 'approve' };
}
