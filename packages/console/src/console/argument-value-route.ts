import type { ServerResponse } from 'node:http';
import { valueText } from '../views/value-text.js';
import type { ConsoleIdentity } from './approval-console-options.js';
import type { ApprovalItem } from './approval-item.js';
import { notFoundPage } from './console-page.js';
import type { ConsoleResponder } from './console-responder.js';

/** The route of one held argument's whole value, relative to the base path: `approvals/<id>/arguments/<field>`. */
export const ARGUMENT_VALUE_ROUTE = /^approvals\/([^/]+)\/arguments\/([^/]+)$/;

/**
 * The address of the whole value of argument `field` of approval `id`.
 *
 * @example
 * argumentValuePath('/approvals/', 'a1', 'body'); // '/approvals/approvals/a1/arguments/body'
 */
export function argumentValuePath(base: string, id: string, field: string): string {
  return `${base}approvals/${encodeURIComponent(id)}/arguments/${encodeURIComponent(field)}`;
}

/** What {@link answerArgumentValue} needs. */
export interface ArgumentValueSettings {
  /** The console's base path, ending in `/`. */
  readonly base: string;
  /** Writes the answer. */
  readonly responder: ConsoleResponder;
  /**
   * The item `identity` may see, or null (unknown, or not theirs to see): the same lookup as the
   * detail page's, so whoever may not see an item gets no value of it either.
   */
  readonly loadItem: (id: string, identity: ConsoleIdentity) => Promise<ApprovalItem | null>;
}

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * The text served for argument `field` of `item` (the redacted copy the gate stored, as the
 * detail page shows it), or null when the call has no such argument.
 */
export function argumentValueOf(item: ApprovalItem, field: string): string | null {
  if (!Object.hasOwn(item.arguments, field)) return null;
  return valueText(item.arguments[field]);
}

/**
 * Answers `GET <base>approvals/<id>/arguments/<field>`: the whole held value as
 * `text/plain; charset=utf-8` (a string as it is, another value as canonical JSON — the text whose
 * SHA-256 the detail page shows), shown inline, never sniffed as another type, with the console's
 * security headers; a 404 page when the item or the field is unknown.
 */
export async function answerArgumentValue(
  settings: ArgumentValueSettings,
  response: ServerResponse,
  segments: { readonly id: string; readonly field: string },
  identity: ConsoleIdentity,
  nonce: string,
  cookies: readonly string[],
): Promise<void> {
  const { base, responder } = settings;
  const id = decode(segments.id);
  const field = decode(segments.field);
  const item = id === null ? null : await settings.loadItem(id, identity);
  const text = item === null || field === null ? null : argumentValueOf(item, field);
  if (text === null)
    return responder.sendPage(response, notFoundPage(base, 'This approval request has no such argument.'), identity, nonce, cookies);
  responder.send(response, 200, 'text/plain; charset=utf-8', text, {
    'Content-Disposition': 'inline',
    'X-Content-Type-Options': 'nosniff',
    ...(cookies.length === 0 ? {} : { 'Set-Cookie': [...cookies] }),
  });
}
