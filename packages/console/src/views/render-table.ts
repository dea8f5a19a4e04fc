import { escapeHtml } from '../security/escape-html.js';

/**
 * A list table: a caption, column headings, and rows whose cells are already HTML. The first
 * column is the row's heading; the rest carry their heading as `data-label`, which the stylesheet
 * shows at phone width, where each row becomes a card.
 */
export function renderListTable(caption: string, headings: readonly string[], rows: readonly (readonly string[])[]): string {
  const head = headings.map((heading) => `<th scope="col">${escapeHtml(heading)}</th>`).join('');
  const body = rows
    .map(
      (cells) =>
        `<tr>\n${cells
          .map((cell, index) =>
            index === 0 ? `<th scope="row">${cell}</th>` : `<td data-label="${escapeHtml(headings[index] ?? '')}">${cell}</td>`,
          )
          .join('\n')}\n</tr>`,
    )
    .join('\n');
  return (
    `<table class="approvals">\n<caption>${escapeHtml(caption)}</caption>\n` +
    `<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`
  );
}
