import type { ToolResult } from '@milpa/core';

/** The plan returned by a plan-mode call (`context.asPlan()`): what would have run. */
export interface PlanPreview {
  /** The tool that was checked. */
  readonly tool: string;
  /** Every other plan field (mutating, requires_confirmation, scopes_required, timeout, args…), in order. */
  readonly fields: readonly (readonly [key: string, value: unknown])[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The plan carried by `result`, or null. A plan-mode result is a success whose data is exactly
 * `{ plan: { tool, … } }`; requiring the lone key and the tool name keeps a tool's own `plan`
 * field from being mistaken for one.
 */
export function readPlanPreview(result: ToolResult): PlanPreview | null {
  if (!result.success || !isRecord(result.data)) return null;
  const keys = Object.keys(result.data);
  if (keys.length !== 1 || keys[0] !== 'plan') return null;
  const plan = result.data['plan'];
  if (!isRecord(plan) || typeof plan['tool'] !== 'string') return null;
  return { tool: plan['tool'], fields: Object.entries(plan).filter(([key]) => key !== 'tool') };
}
