import { ToolResult } from '@milpa/core';
import { capResultData } from '../../result-cap/cap-result-data.js';
import { describeStep } from '../describe-step.js';
import type { Stage, StageVerdict, EndedCall } from '../stage.js';

/**
 * Caps what a tool returns before anyone sees it: a result whose data is longer than the cap
 * (registry option `maxResultTokens`, default 2,500 estimated tokens = 10,000 characters; 0 turns
 * it off) is cut, ends with a note telling the model to narrow the request or page with `offset`,
 * and carries `meta.truncated`, `meta.original_chars` and `meta.max_chars`; the audit records the
 * original size. Every result is sent again on each later turn, so one oversized result costs many
 * times over.
 */
export const capResultStage: Stage = {
  name: 'cap_result',
  phase: 'exit',
  needs: 'result',
  collaborator: 'result cap',
  refusesOnAbort: false,
  run(call: EndedCall): StageVerdict {
    const maxChars = call.services.maxResultChars;
    if (maxChars === 0 || call.outcome !== 'executed') return undefined;
    const result = call.result;
    const capped = capResultData(result.data, maxChars);
    if (capped === null) return undefined;
    call.result = new ToolResult(
      result.success,
      capped.data,
      result.message,
      result.error,
      Object.freeze({ ...result.meta, truncated: true, original_chars: capped.originalChars, max_chars: maxChars }),
      call.ending,
    );
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
            `a result whose data is over ${wiring.maxResultChars} characters (${wiring.maxResultChars / 4} estimated tokens) is cut, with a note to narrow the request or page with offset, and meta.truncated`,
          ),
    ];
  },
};
