import { capResult } from '../../result-cap/cap-tool-result.js';
import { describeStep } from '../describe-step.js';
import type { Stage, StageVerdict, EndedCall } from '../stage.js';

/**
 * Caps what the model reads of every result, whatever the outcome (refusals and failures too):
 * `data`, `message`, `error` and the `meta` entries the tool wrote share one budget (registry option
 * `maxResultTokens`, default 2,500 estimated tokens = 10,000 characters; 0 turns it off). A result
 * over it is cut, carries a note telling the model to narrow the request or page with `offset`, and
 * `meta.truncated`, `meta.original_chars`, `meta.max_chars` and `meta.original_sizes` (per part);
 * the runtime's own meta entries stay whole. The audit records the original sizes. Every result is
 * sent again on each later turn, so one oversized result costs many times over.
 */
export const capResultStage: Stage = {
  name: 'cap_result',
  phase: 'exit',
  needs: 'result',
  collaborator: 'result cap',
  refusesOnAbort: false,
  run(call: EndedCall): StageVerdict {
    const maxChars = call.services.maxResultChars;
    if (maxChars === 0) return undefined;
    const capped = capResult(call.result, maxChars);
    if (capped !== null) call.result = capped;
    return undefined;
  },
  describe({ wiring }) {
    return [
      wiring.maxResultChars === 0
        ? describeStep('cap_result', 'transform', 'skipped', false, false, 'the result cap is off (registry option maxResultTokens: 0)')
        : describeStep(
            'cap_result',
            'transform',
            'active',
            false,
            false,
            `every result, refusals and failures included, is capped at ${wiring.maxResultChars} characters ` +
              `(${wiring.maxResultChars / 4} estimated tokens) ` +
              'shared by data, message, error and the meta entries the tool wrote; a longer one is cut, with a note to narrow ' +
              'the request or page with offset, ' +
              'meta.truncated and the original sizes',
          ),
    ];
  },
};
