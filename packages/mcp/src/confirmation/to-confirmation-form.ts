import type { ElicitationRequest } from '@milpa/core';
import type { PendingConfirmation } from './pending-confirmation.js';

/**
 * The elicitation form that asks the person to confirm a pending action. It has no fields: the
 * client's own accept / decline / cancel buttons are the answer.
 */
export function toConfirmationForm(pending: PendingConfirmation): ElicitationRequest {
  return {
    message: `'${pending.toolName}' needs your confirmation before it runs: ${pending.actionSummary}. Accept to run it, decline to cancel.`,
    requestedSchema: { type: 'object', properties: {} },
  };
}
