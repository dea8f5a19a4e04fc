import type { ConsoleAuthorize, ConsoleIdentity } from './approval-console-options.js';
import type { ApprovalItem } from './approval-item.js';

/**
 * Whether `identity` may see and decide `item` under `authorize` (everyone may without one). Only
 * `true` allows: any other answer, a rejected promise or a throw refuses (fail closed).
 */
export async function authorizeApprover(
  authorize: ConsoleAuthorize | undefined,
  identity: ConsoleIdentity,
  item: ApprovalItem,
): Promise<boolean> {
  if (authorize === undefined) return true;
  try {
    return (await authorize({ principal: identity.principal }, item)) === true;
  } catch {
    return false;
  }
}
