import type { ApprovalItem } from '../console/approval-item.js';
import { escapeHtml } from '../security/escape-html.js';
import { renderName } from './render-name.js';

/** The first cell of a list row: the item's tool name (look-alikes escaped, with a warning) linking to its detail view. */
export function renderToolLink(item: ApprovalItem, base: string): string {
  const name = renderName(item.tool);
  return `<a href="${escapeHtml(`${base}approvals/${encodeURIComponent(item.id)}`)}">${name.html}</a>${name.mark}`;
}
