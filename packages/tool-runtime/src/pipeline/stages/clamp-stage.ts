import { mutabilityOf, type AnyToolDefinition } from '@milpa/core';
import { describeStep } from '../describe-step.js';
import type { PipelineCall } from '../pipeline-call.js';
import { isPlainArgs } from '../settle.js';
import type { Stage, StageVerdict } from '../stage.js';

function describeClamps(clamps: AnyToolDefinition['clamps']): string {
  return Object.entries(clamps)
    .map(([field, rule]) => {
      const bounds = (['min', 'max', 'maxLength'] as const)
        .filter((key) => rule[key] !== undefined)
        .map((key) => `${key}=${String(rule[key])}`);
      return `${field} {${bounds.join(', ')}}`;
    })
    .join(', ');
}

/**
 * Prepares the arguments for validation: takes `confirm_token` out when the call may need
 * confirmation and `approval_id` out when an approval gate may hold it (so strict schemas still
 * accept the replay or resume), then applies the tool's clamps, which
 * coerce before validation so a clamped field is never rejected for its range. Arguments that are
 * not an object are left for validate to refuse.
 */
export const clampStage: Stage = {
  name: 'clamp',
  phase: 'gate',
  collaborator: 'argument clamping',
  refusesOnAbort: true,
  run(call: PipelineCall): StageVerdict {
    const raw = call.tidiedArgs ?? call.rawArgs;
    if (!isPlainArgs(raw)) return undefined;
    const entry = call.entry!;
    const tool = entry.definition;
    const services = call.services;
    // Before validation a per-call tool's answer is unknown: asked without it, the gate says whether
    // the call may need confirmation, so its token is taken out whenever it could be redeemed.
    const confirmable = services.gate.requiresConfirmation(call.context, tool);
    call.confirmable = confirmable;
    let input: Readonly<Record<string, unknown>> = raw;
    if (confirmable && Object.hasOwn(raw, 'confirm_token')) {
      const { confirm_token: token, ...rest } = raw;
      input = rest;
      call.confirmToken = token;
      call.hasToken = token !== null && token !== undefined;
    }
    // A held call is resumed by presenting its approval id; like the token, it is no argument of the
    // tool, so strict schemas accept the resume. Only a tool an approval gate may hold has one.
    if (Object.hasOwn(input, 'approval_id') && mutabilityOf(tool) !== 'read_only' && services.approvals.gateFor(tool.name) !== null) {
      const { approval_id: approvalId, ...rest } = input;
      input = rest;
      call.approvalId = approvalId;
      call.resuming = approvalId !== null && approvalId !== undefined;
    }
    if (entry.hasClamps) input = services.validator.applyClamps(input, tool.clamps);
    call.input = input;
    return undefined;
  },
  describe({ tool }) {
    const clamped = Object.keys(tool.clamps).length > 0;
    return [
      clamped
        ? describeStep(
            'clamp',
            'transform',
            'active',
            false,
            true,
            `tool clamps: ${describeClamps(tool.clamps)}; applied before validation, they coerce and never reject`,
          )
        : describeStep('clamp', 'transform', 'skipped', false, false, 'tool declares no clamps'),
    ];
  },
};
