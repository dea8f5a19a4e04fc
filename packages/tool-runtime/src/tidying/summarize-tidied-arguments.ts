import type { TidiedArgument } from '@milpa/core';

/**
 * What argument tidying changed (an approval request's or a confirmation's `tidied`) as one line for a summary, e.g.
 * `status dropped (sent "*"); limit bounded (sent 500, now 20)`; empty when there are none.
 */
export function summarizeTidiedArguments(changes: readonly TidiedArgument[]): string {
  return changes
    .map(({ field, action, sent, present, value }) => {
      const was = `sent ${quote(sent)}`;
      return `${field} ${action} (${present ? `${was}, now ${quote(value)}` : was})`;
    })
    .join('; ');
}

/** Values longer than this are cut in a summary: it is a line for a person, not a copy of the call. */
const MAX_VALUE_LENGTH = 60;

function quote(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = '…';
  }
  return text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH)}…` : text;
}
