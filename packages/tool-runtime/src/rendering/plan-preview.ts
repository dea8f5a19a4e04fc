import { isRecord } from '@milpa/core/kit';
import type { ToolResult } from '@milpa/core';

/** The plan returned by a plan-mode call (`context.asPlan()`): what would have run. */
export interface PlanPreview {
  /** The tool that was checked. */
  readonly tool: string;
  /**
   * Every other plan field (mutating, requires_confirmation, scopes_required, timeout, args…), in
   * order, as it should read: the deadline appears once, as `timeout` with its unit (`'30 s'`).
   */
  readonly fields: readonly (readonly [key: string, value: unknown])[];
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
  return { tool: plan['tool'], fields: readableTimeout(Object.entries(plan).filter(([key]) => key !== 'tool')) };
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * The plan carries its deadline twice on the wire, as `timeout` (seconds) and `timeout_ms`; a
 * reader needs it once, with its unit. The first of the two keeps its place.
 */
function readableTimeout(fields: readonly (readonly [string, unknown])[]): readonly (readonly [string, unknown])[] {
  const entries = new Map(fields);
  const milliseconds = entries.get('timeout_ms');
  const stated = entries.get('timeout');
  const seconds = isSeconds(milliseconds) ? milliseconds / 1000 : milliseconds === undefined && isSeconds(stated) ? stated : null;
  if (seconds === null) return fields;
  let placed = false;
  const readable: (readonly [string, unknown])[] = [];
  for (const [key, value] of fields) {
    if (key !== 'timeout' && key !== 'timeout_ms') readable.push([key, value]);
    else if (!placed) {
      readable.push(['timeout', `${seconds} s`]);
      placed = true;
    }
  }
  return readable;
}
