/** What a paused call waits for: a person's approval (someone other than the caller) or the caller's confirmation. */
export type MilpaReviewKind = 'approval' | 'confirmation';

/** The decisions a reviewer may give a paused call. An edit is never offered: see {@link MilpaReviewDecision}. */
export type MilpaReviewDecisionType = 'approve' | 'reject';

/** One call shown to the reviewer, in the shape of LangChain's human-in-the-loop action requests. */
export interface MilpaActionRequest {
  /** The tool called. */
  readonly name: string;
  /** The arguments the model gave: exactly what runs when the call is approved. */
  readonly args: Readonly<Record<string, unknown>>;
  /** What the reviewer is asked, including the pipeline's own text (who must approve, until when). */
  readonly description: string;
}

/** The decisions allowed for the call, in the shape of LangChain's human-in-the-loop review configs. */
export interface MilpaReviewConfig {
  /** The tool called. */
  readonly actionName: string;
  /** Always `['approve', 'reject']`. */
  readonly allowedDecisions: readonly MilpaReviewDecisionType[];
}

/** What ties a review to one Milpa call; a decision must name the same `tool_call_id`. */
export interface MilpaReviewBinding {
  /** Approval (held by an approval gate) or confirmation (the pipeline asked for a confirm token). */
  readonly kind: MilpaReviewKind;
  /** The LangChain tool call id; also the call's request id in Milpa's audit. */
  readonly tool_call_id: string;
  /** The tool called. */
  readonly tool: string;
  /** The id Milpa holds the call under (approvals), or null. */
  readonly approval_id: string | null;
  /** When the held call or the confirmation expires, as the pipeline wrote it, or null. */
  readonly expires_at: string | null;
}

/**
 * The value a call paused for review interrupts the LangChain run with (one per tool call). It has
 * the shape of LangChain's `HITLRequest` — one action request and one review config — plus
 * `milpa`, which names the exact call the decision must be bound to.
 *
 * @example
 * const paused = result.__interrupt__?.[0];            // { id, value: MilpaReviewRequest }
 * const request = paused.value as MilpaReviewRequest;
 * await agent.invoke(new Command({ resume: { [paused.id]: approveReview(request) } }), config);
 */
export interface MilpaReviewRequest {
  /** The call under review (exactly one). */
  readonly actionRequests: readonly MilpaActionRequest[];
  /** The decisions allowed for it (exactly one config). */
  readonly reviewConfigs: readonly MilpaReviewConfig[];
  /** What binds a decision to this call. */
  readonly milpa: MilpaReviewBinding;
}

/**
 * A reviewer's decision on one paused call, given as the run's resume value inside a
 * {@link MilpaReviewResponse}. It must name the call's `tool_call_id`; an approval may repeat the
 * `args` it approves, which must then equal the call's own. An `edit` decision (LangChain's third
 * kind) is never an approval of the changed arguments: the call is refused and nothing runs.
 */
export type MilpaReviewDecision =
  | {
      /** Run the call as shown. */
      readonly type: 'approve';
      /** The tool call approved. */
      readonly tool_call_id: string;
      /** The arguments approved, when the reviewer's tool repeats them. */
      readonly args?: Readonly<Record<string, unknown>>;
    }
  | {
      /** Refuse the call; nothing runs. */
      readonly type: 'reject';
      /** The tool call rejected. */
      readonly tool_call_id?: string;
      /** Why, shown to the model. */
      readonly message?: string;
    };

/** The resume value for a paused call: LangChain's `HITLResponse` shape with one bound decision. */
export interface MilpaReviewResponse {
  /** Exactly one decision. */
  readonly decisions: readonly MilpaReviewDecision[];
}
