import { tidyArguments } from '../../tidying/tidy-arguments.js';
import { describeStep } from '../describe-step.js';
import { isPlainArgs } from '../settle.js';
import type { Stage, StageVerdict, ResolvedCall } from '../stage.js';

/**
 * Opt-in (`new ToolRegistry({ tidyArguments: true })`): cleans what a model sent before clamps and
 * validation — drops optional arguments sent as null, blank, `*` or `%` (unless an enum value),
 * converts numeric strings for number properties, sets optional out-of-range numbers to the schema's
 * bound (a required one, often an identifier, is left for validation to refuse).
 * Every change is listed in the result's `meta.tidied` (field and action, never the value), so
 * nothing is silent. Required and unknown arguments pass through for validation to judge.
 */
export const tidyStage: Stage = {
  name: 'tidy',
  phase: 'gate',
  needs: 'tool',
  collaborator: 'argument tidying',
  refusesOnAbort: true,
  run(call: ResolvedCall): StageVerdict {
    if (!call.services.tidyArguments) return undefined;
    const raw = call.rawArgs;
    if (!isPlainArgs(raw)) return undefined;
    const outcome = tidyArguments(raw, call.entry.definition.inputSchema);
    if (outcome.changes.length === 0) return undefined;
    call.tidiedArgs = outcome.args;
    call.tidied = outcome.changes;
    return undefined;
  },
  describe({ wiring }) {
    return [
      wiring.tidyArguments
        ? describeStep(
            'tidy',
            'transform',
            'active',
            false,
            true,
            "registry option tidyArguments: optional null, blank, '*' or '%' arguments dropped (unless an enum value), numeric strings converted, optional numbers set to the schema's bounds (never a required one); listed in meta.tidied",
          )
        : describeStep('tidy', 'transform', 'skipped', false, false, 'argument tidying is off (registry option tidyArguments)'),
    ];
  },
};
