import { ToolErrorCode, ToolResult } from '@milpa/core';
import { refusedOutcome } from '../call-outcomes.js';
import { describeStep } from '../describe-step.js';
import type { PipelineCall } from '../pipeline-call.js';
import type { Stage, StageVerdict } from '../stage.js';

/** Finds the tool by name; an unknown name (or a name that is not a string) ends the call with `TOOL_NOT_FOUND`. */
export const resolveStage: Stage = {
  name: 'resolve',
  phase: 'gate',
  needs: 'call',
  collaborator: 'tool lookup',
  refusesOnAbort: true,
  run(call: PipelineCall): StageVerdict {
    const name = call.requestedName;
    const entry = typeof name === 'string' ? call.services.tools.get(name) : undefined;
    if (entry !== undefined) {
      call.entry = entry;
      return undefined;
    }
    // Nothing ran, so took_ms is 0 by definition, not a clock reading.
    const message = `Tool not found: ${call.toolName}`;
    const outcome = refusedOutcome('not_found', ToolErrorCode.TOOL_NOT_FOUND, message);
    const meta = { ...call.metaAfter(0), code: ToolErrorCode.TOOL_NOT_FOUND, type: 'error' };
    return call.end(new ToolResult(false, null, null, message, meta, outcome), outcome);
  },
  describe() {
    return [describeStep('resolve', 'guard', 'active', true, false, 'registry lookup by name; an unknown name returns TOOL_NOT_FOUND')];
  },
};
