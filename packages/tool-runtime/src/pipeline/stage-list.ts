import { MilpaError } from '@milpa/core';
import { HOST_STAGE_AFTER_ANCHORS, HOST_STAGE_BEFORE_ANCHORS, type HostStagePlacement } from './host-stage.js';
import type { Stage } from './stage.js';
import { approveStage } from './stages/approve-stage.js';
import { auditExitStage } from './stages/audit-exit-stage.js';
import { capResultStage } from './stages/cap-result-stage.js';
import { authorizeStage } from './stages/authorize-stage.js';
import { clampStage } from './stages/clamp-stage.js';
import { confirmStage } from './stages/confirm-stage.js';
import { emitExecutingStage } from './stages/emit-executing-stage.js';
import { eventsStage } from './stages/events-stage.js';
import { executeStage } from './stages/execute-stage.js';
import { historyStage } from './stages/history-stage.js';
import { idempotencyRecordStage } from './stages/idempotency-record-stage.js';
import { idempotencyStage } from './stages/idempotency-stage.js';
import { createHostGuardStage } from './stages/host-guard-stage.js';
import { planModeStage } from './stages/plan-mode-stage.js';
import { rateLimitStage } from './stages/rate-limit-stage.js';
import { resolveStage } from './stages/resolve-stage.js';
import { tidyStage } from './stages/tidy-stage.js';
import { rulesReplayStage } from './stages/rules-replay-stage.js';
import { rulesStage } from './stages/rules-stage.js';
import { validateStage } from './stages/validate-stage.js';

/**
 * The pipeline, in the order a call runs it. Adding a stage is a new file under `stages/` and one
 * line here; inspection reads this same list, so a plan cannot drift from what a call does.
 */
export const BUILT_IN_STAGES: readonly Stage[] = Object.freeze([
  resolveStage,
  tidyStage,
  clampStage,
  validateStage,
  authorizeStage,
  idempotencyStage,
  rulesStage,
  rateLimitStage,
  planModeStage,
  confirmStage,
  approveStage,
  rulesReplayStage,
  emitExecutingStage,
  executeStage,
  capResultStage,
  idempotencyRecordStage,
  historyStage,
  eventsStage,
  auditExitStage,
]);

const BEFORE_ANCHORS: ReadonlySet<string> = new Set(HOST_STAGE_BEFORE_ANCHORS);
const AFTER_ANCHORS: ReadonlySet<string> = new Set(HOST_STAGE_AFTER_ANCHORS);
const STAGE_NAME = /^[a-z][a-z0-9_]{0,63}$/;

function invalid(message: string): MilpaError {
  return new MilpaError(`ToolRegistry option stages: ${message}`, { code: 'INVALID_ARGUMENT' });
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? `'${value}'` : String(value);
}

/** Checks one placement and returns its anchor and side. */
function checkPlacement(placement: unknown, index: number, names: Set<string>): { anchor: string; side: 'before' | 'after' } {
  if (typeof placement !== 'object' || placement === null) throw invalid(`entry ${index} must be { before | after, stage }.`);
  const { before, after, stage } = placement as { before?: unknown; after?: unknown; stage?: unknown };
  if (typeof stage !== 'object' || stage === null || typeof (stage as { check?: unknown }).check !== 'function') {
    throw invalid(`entry ${index} needs a stage with a check(call) function.`);
  }
  const name = (stage as { name?: unknown }).name;
  if (typeof name !== 'string' || !STAGE_NAME.test(name)) {
    throw invalid(
      `entry ${index}: the stage name ${describeValue(name)} must be lower-case letters, digits and _, ` +
        `starting with a letter, at most 64 characters.`,
    );
  }
  if (BUILT_IN_STAGES.some((builtIn) => builtIn.name === name) || names.has(name)) {
    throw invalid(`entry ${index}: a stage named '${name}' already exists; names are unique.`);
  }
  const description = (stage as { description?: unknown }).description;
  if (description !== undefined && typeof description !== 'string') throw invalid(`stage '${name}': description must be a string.`);
  names.add(name);
  if ((before === undefined) === (after === undefined)) throw invalid(`stage '${name}' needs exactly one of before or after.`);
  if (before !== undefined) {
    if (typeof before !== 'string' || !BEFORE_ANCHORS.has(before)) {
      throw invalid(
        `stage '${name}' cannot run before ${describeValue(before)}: a host stage sees validated arguments and must run before ` +
          `tool.executing, ` +
          `so before takes one of ${[...BEFORE_ANCHORS].join(', ')}.`,
      );
    }
    return { anchor: before, side: 'before' };
  }
  if (typeof after !== 'string' || !AFTER_ANCHORS.has(after)) {
    throw invalid(
      `stage '${name}' cannot run after ${describeValue(after)}: a host stage sees validated arguments and must run before ` +
        `tool.executing, ` +
        `so after takes one of ${[...AFTER_ANCHORS].join(', ')}.`,
    );
  }
  return { anchor: after, side: 'after' };
}

/**
 * The built-in stages with the host's own stages inserted at their positions.
 * @throws MilpaError `INVALID_ARGUMENT` for a placement that is malformed, names a position a host
 *   stage may not take (after `tool.executing`, or before validation), or reuses a name.
 */
export function composeStages(placements: readonly HostStagePlacement[] | undefined): readonly Stage[] {
  if (placements === undefined || (Array.isArray(placements) && placements.length === 0)) return BUILT_IN_STAGES;
  if (!Array.isArray(placements)) throw invalid('must be an array of { before | after, stage }.');
  const names = new Set<string>();
  const checked = placements.map((placement, index) => ({
    ...checkPlacement(placement, index, names),
    stage: createHostGuardStage(placement.stage),
  }));
  const stages: Stage[] = [];
  for (const builtIn of BUILT_IN_STAGES) {
    for (const host of checked) if (host.side === 'before' && host.anchor === builtIn.name) stages.push(host.stage);
    stages.push(builtIn);
    for (const host of checked) if (host.side === 'after' && host.anchor === builtIn.name) stages.push(host.stage);
  }
  return Object.freeze(stages);
}
