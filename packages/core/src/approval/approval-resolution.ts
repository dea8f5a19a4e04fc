/**
 * What a suspending gate knows about a held call when its requester resumes:
 * - `pending`: nobody has decided yet (or not enough approvers have).
 * - `granted`: approved; `changes` replaces declared input fields (validated again before running),
 *   null when the approvers ran it as asked.
 * - `rejected`: refused; `reason` is shown to the requester.
 */
export type ApprovalResolution =
  | { readonly status: 'pending' }
  | { readonly status: 'granted'; readonly approvedBy: readonly string[]; readonly changes: Readonly<Record<string, unknown>> | null }
  | { readonly status: 'rejected'; readonly reason: string; readonly rejectedBy: string | null };
