import { tidyArguments } from '../../tidying/tidy-arguments.js';
import { describeStep } from '../describe-step.js';
import { isPlainArgs } from '../settle.js';
import type { Stage, StageVerdict, ResolvedCall } from '../stage.js';

/**
 * Opt-in (`new ToolRegistry({ tidyArguments: true })`): cleans what a model sent before clamps and
 * validation — drops optional arguments sent as null, blank, `*` or `%` (unless an enum value),
 * converts numeric strings for number properties, sets optional out-of-range numbers to the schema's
 * bound (a required one, often an identifier, is left for validation to refuse). It never widens a
 * call: an identifier field (`id`, `user_id`, `noteIds`, …) is never dropped or bounded, and a
 * property marked `'x-milpa-protected': true` is taken exactly as sent.
 * Every change is listed in the result's `meta.tidied` (field and action, never the value) when the
 * call executes or waits for a person — never on a refusal, which must not hint at the schema — and,
 * with redacted values, in a confirmation's action summary and an approval request's `tidied`.
 * Required and unknown arguments pass through for validation to judge.
 */
export const tidyStage: Stage = {
  name: 'tidy',
  phase: 'gate',
  needs: 'tool',
  collaborator: 'argument tidying',
  refusesOnAbort: true,
  idleForPlainCall: (services) => !services.tidyArguments,
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
            "registry option tidyArguments: optional null, blank, '*' or '%' arguments dropped (unless an enum value), numeric " +
              "strings converted, optional numbers set to the schema's bounds (never a required one); identifier fields are " +
              'never dropped or bounded, x-milpa-protected fields are taken as sent; listed in meta.tidied (never on a ' +
              "refusal), in a confirmation's summary and an approval request",
          )
        : describeStep('tidy', 'transform', 'skipped', false, false, 'argument tidying is off (registry option tidyArguments)'),
    ];
  },
};
