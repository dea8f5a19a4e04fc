/** One check of a scenario, as the conformance CLI writes it to `checks.json`. */
export interface ConformanceCheck {
  /** The check id, e.g. `tools-call-simple-text`. */
  readonly id: string;
  /** `SUCCESS`, `FAILURE`, `WARNING` or `INFO`. */
  readonly status: string;
  /** What the check verifies. */
  readonly description?: string;
  /** Why it failed, when it did. */
  readonly errorMessage?: string;
}
