import { ToolResult } from '@milpa/core';
import { PLANNED } from '../call-outcomes.js';
import { describeStep } from '../describe-step.js';
import { planArgs } from '../plan-args.js';
import type { Stage, StageVerdict, ValidatedCall } from '../stage.js';

/**
 * In plan mode (`context.mode === 'plan'`) the call ends here with what would run — tool, mutating,
 * whether it needs confirmation, scopes, timeout and the validated arguments — after every gate
 * above has run for real and before anything below runs.
 */
export const planModeStage: Stage = {
  name: 'plan_mode',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'plan mode',
  refusesOnAbort: true,
  // A plain call is never in plan mode.
  idleForPlainCall: () => true,
  run(call: ValidatedCall): StageVerdict {
    if (!call.context.isPlanMode()) return undefined;
    const tool = call.entry.definition;
    const services = call.services;
    services.debug({ tool: tool.name }, `[ToolRegistry] Plan mode for ${tool.name} - returning plan without execution`);
    const result = new ToolResult(
      true,
      {
        plan: {
          tool: tool.name,
          mutating: call.mutating,
          requires_confirmation: call.needsConfirmation,
          scopes_required: tool.scopes,
          timeout: tool.timeoutMs / 1000,
          timeout_ms: tool.timeoutMs,
          args: planArgs(call.args, services.audit.redactor, tool.inputSchema),
        },
      },
      null,
      null,
      call.meta(),
      PLANNED,
    );
    return call.end(result, PLANNED);
  },
  describe({ context }) {
    return [
      describeStep(
        'plan_mode',
        'branch',
        'conditional',
        false,
        false,
        `context.mode == 'plan'; actual: ${context.mode} (plan mode returns the plan before confirm and execute)`,
      ),
    ];
  },
};
