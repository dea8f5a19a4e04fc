import type { AnyToolDefinition } from '@milpa/core';
import { applicableClamps } from '../../validation/applicable-clamps.js';
import { describeStep } from '../describe-step.js';
import { isPlainArgs } from '../settle.js';
import type { Stage, StageVerdict, ResolvedCall } from '../stage.js';

function describeClamps(clamps: Readonly<AnyToolDefinition['clamps']>): string {
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
 * so a clamped field is never rejected for its range. A clamp on an identifier field (`id`,
 * `user_id`, `noteIds`, …) or on a property marked `'x-milpa-protected': true` is never applied: a
 * value moved to a bound would name another record, so validation judges the value as sent. Arguments that are not an object are left for
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
    const clamps = call.entry.clamps;
    call.input = clamps !== null ? call.services.validator.applyClamps(raw, clamps) : raw;
    return undefined;
  },
  describe({ tool }) {
    const { clamps, skipped } = applicableClamps(tool.clamps, tool.inputSchema);
    const unapplied = skipped.length === 0 ? '' : `; not applied to identifier or protected fields: ${skipped.join(', ')}`;
    if (clamps !== null) {
      return [
        describeStep(
          'clamp',
          'transform',
          'active',
          false,
          true,
          `tool clamps: ${describeClamps(clamps)}; applied before validation, they coerce and never reject${unapplied}`,
        ),
      ];
    }
    const none = skipped.length === 0 ? 'tool declares no clamps' : `tool declares no clamp that applies${unapplied}`;
    return [describeStep('clamp', 'transform', 'skipped', false, false, none)];
  },
};
