import type { AnyToolDefinition } from '@milpa/core';
import { describeStep } from '../describe-step.js';
import { isPlainArgs } from '../settle.js';
import type { Stage, StageVerdict, ResolvedCall } from '../stage.js';

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
 * Prepares the arguments for validation: applies the tool's clamps, which coerce before validation
 * so a clamped field is never rejected for its range. Arguments that are not an object are left for
 * validate to refuse. Control values (a confirmation token, an approval id) are call options, never
 * arguments: nothing is taken out here.
 */
export const clampStage: Stage = {
  name: 'clamp',
  phase: 'gate',
  needs: 'tool',
  collaborator: 'argument clamping',
  refusesOnAbort: true,
  run(call: ResolvedCall): StageVerdict {
    const raw = call.tidiedArgs ?? call.rawArgs;
    if (!isPlainArgs(raw)) return undefined;
    const entry = call.entry;
    call.input = entry.hasClamps ? call.services.validator.applyClamps(raw, entry.definition.clamps) : raw;
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
