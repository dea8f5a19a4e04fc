import { MilpaError, ToolResult, type ChannelRenderer, type ContentBlock, type ToolContext } from '@milpa/core';
import { describeReplay, type ConfirmationRequest } from './confirmation-request.js';
import { describeContentBlock } from './content-block-text.js';
import { readDataFields, readInformativeFields, readScalarData } from './data-fields.js';
import { toFieldLabel } from './field-label.js';
import { readListItems, readListRow } from './list-row.js';
import type { PlanPreview } from './plan-preview.js';
import { readRuntimeResultShape } from './result-shape.js';
import { toTerminalSafeText } from './terminal-safe-text.js';
import { describeValue } from './value-text.js';

const SUCCESS_FALLBACK = 'Operation completed successfully.';

function fieldLines(fields: readonly (readonly [string, unknown])[]): string {
  return fields.map(([key, value]) => `- ${toFieldLabel(key)}: ${describeValue(value).text}`).join('\n');
}

/**
 * The last-resort renderer: plain text for any channel. A success shows its message (or
 * `Operation completed successfully.`) and its data as `- Label: value` lines (fields with no value —
 * null, empty text, `[]`, `{}` — are left out, except in a detail result) or `#id: name` rows;
 * a failure shows `Error: …` and a blocked result's suggestion. Confirm-token requests, plan-mode
 * results and content blocks get readable forms of their own. Control characters in tool data are
 * shown escaped, never sent to the reader's terminal.
 *
 * @example
 * new DefaultRenderer().render(ToolResult.error('Disk full')); // 'Error: Disk full'
 */
export class DefaultRenderer implements ChannelRenderer<string> {
  /** Always true: this renderer is the fallback for every channel. */
  supports(_channel: string): boolean {
    return true;
  }

  /**
   * The result as plain text.
   * @throws MilpaError `INVALID_ARGUMENT` when `result` is not a `ToolResult`.
   */
  render(result: ToolResult, _context?: ToolContext | null): string {
    if (!ToolResult.isToolResult(result)) {
      throw new MilpaError('DefaultRenderer.render() needs a ToolResult.', { code: 'INVALID_ARGUMENT' });
    }
    return toTerminalSafeText(this.#compose(result));
  }

  #compose(result: ToolResult): string {
    if (!result.success) {
      let output = `Error: ${result.error ?? 'Unknown error'}`;
      const suggestion = result.meta['suggestion'];
      if (result.isBlocked() && suggestion !== null && suggestion !== undefined)
        output += `\n\nSuggestion: ${describeValue(suggestion).text}`;
      return output;
    }
    const shape = readRuntimeResultShape(result);
    switch (shape?.kind) {
      case 'confirmation-request':
        return this.#confirmationRequest(shape.request);
      case 'content':
        return this.#content(result, shape.blocks);
      case 'plan':
        return this.#plan(result, shape.plan);
      default:
        return this.#success(result);
    }
  }

  #success(result: ToolResult): string {
    const scalar = readScalarData(result.data);
    if (result.message === null && scalar !== null) return describeValue(scalar).text;
    let output = result.message ?? SUCCESS_FALLBACK;
    const type = result.getType();
    // A list shows every row and a detail every field of its entity; elsewhere blanks are left out.
    const fields = type === 'list' || type === 'detail' ? readDataFields(result.data) : readInformativeFields(result.data);
    if (fields.length > 0) {
      output += `\n\n${type === 'list' ? this.#rows(result.data) : fieldLines(fields)}`;
    } else if (scalar !== null) {
      output += `\n\n${describeValue(scalar).text}`;
    }
    const pagination = result.getPagination();
    if (pagination !== null) {
      output += `\n\nPage ${pagination.page} of ${pagination.total_pages} (${pagination.total_items} items total)`;
    }
    return output;
  }

  #rows(data: unknown): string {
    return readListItems(data)
      .map((item, index) => {
        const row = readListRow(item, index);
        return `#${describeValue(row.id).text}: ${describeValue(row.name).text}`;
      })
      .join('\n');
  }

  #confirmationRequest(request: ConfirmationRequest): string {
    const heading = request.summary === null ? 'Confirmation required.' : `Confirmation required: ${request.summary}`;
    const details: [string, unknown][] = [['confirm_token', request.token]];
    if (request.expiresAt !== null) details.push(['expires_at', request.expiresAt]);
    return `${heading}\n${fieldLines(details)}\n\n${describeReplay(request)}`;
  }

  #plan(result: ToolResult, plan: PlanPreview): string {
    const heading = `Plan mode: '${plan.tool}' was checked but not executed.`;
    const intro = result.message === null ? heading : `${heading}\n${result.message}`;
    return plan.fields.length > 0 ? `${intro}\n\n${fieldLines(plan.fields)}` : intro;
  }

  #content(result: ToolResult, blocks: readonly ContentBlock[]): string {
    const body = blocks.map((block) => describeContentBlock(block).text).join('\n');
    if (result.message === null) return body === '' ? SUCCESS_FALLBACK : body;
    return body === '' ? result.message : `${result.message}\n\n${body}`;
  }
}
