import { InvocationDecision, type InvocationRule } from '@milpa/core';

/** Deletions a run may execute; the next one is refused. */
export const MAX_DELETIONS_PER_RUN = 3;

/**
 * `notes.max_deletions_per_run`: a run may delete at most {@link MAX_DELETIONS_PER_RUN} notes; the
 * fourth `delete_note` is refused with the reason `too_many_deletions`. It counts the run's executed
 * deletions, so it requires a complete history: a deletion outside a run, or in a run the history
 * store does not know, is refused as `history_incomplete` — the count could not be trusted.
 *
 * @example
 * new ToolRegistry({ rules: [maxDeletionsPerRunRule] });
 */
export const maxDeletionsPerRunRule: InvocationRule = Object.freeze<InvocationRule>({
  identifier: 'notes.max_deletions_per_run',
  requiresCompleteHistory: true,
  tools: Object.freeze(['delete_note']),
  evaluate: ({ history }) =>
    history.count({ tool: 'delete_note', outcome: 'executed' }) >= MAX_DELETIONS_PER_RUN
      ? InvocationDecision.deny('too_many_deletions')
      : InvocationDecision.allow(),
});
