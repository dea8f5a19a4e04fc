import { MilpaError, ToolResult, type ChannelRenderer, type ContentBlock, type ToolContext } from '@milpa/core';
import { describeReplay, type ConfirmationRequest } from './confirmation-request.js';
import { describeContentBlock } from './content-block-text.js';
import { readDataFields, readInformativeFields, readScalarData } from './data-fields.js';
import { toFieldLabel } from './field-label.js';
import { readListItems, readListRow } from './list-row.js';
import type { PlanPreview } from './plan-preview.js';
import { readRuntimeResultShape, type RuntimeResultShape } from './result-shape.js';
import { paintTerminalText, shouldUseColor, type TerminalColorStyle } from './terminal-color.js';
import { toTerminalSafeText } from './terminal-safe-text.js';
import { describeValue } from './value-text.js';

/** Options of a {@link CliRenderer}. */
export interface CliRendererOptions {
  /**
   * Tint the output with ANSI colours (green, yellow, red). `false` (the default) writes plain text
   * and `true` always colours, so output is deterministic; `'auto'` decides once, when the renderer
   * is built: colour when `FORCE_COLOR` asks for it, else none when `NO_COLOR` is set or `TERM` is
   * `dumb`, else colour only when `stream` is a terminal.
   */
  readonly color?: boolean | 'auto';
  /** The stream the text will be written to, checked by `color: 'auto'`; default `process.stdout`. */
  readonly stream?: { readonly isTTY?: boolean };
}

const RULE = '-'.repeat(50);
const SHORT_RULE = '-'.repeat(40);
const DOUBLE_RULE = '='.repeat(40);

function clean(value: unknown): string {
  return toTerminalSafeText(typeof value === 'string' ? value : describeValue(value).text);
}

/**
 * Renders results for a terminal (the `cli` channel only): `✓`/`✗` lines (with the fields that
 * carry a value), list rows with
 * `[OK]`/`[--]` markers and a page footer, labelled detail fields and actions, `CONFIRMATION REQUIRED` and `OPERATION BLOCKED` frames.
 * Confirm-token requests, plan-mode results and content blocks get frames of their own. Plain text by default; with
 * `color: true` (or `'auto'` on a terminal) headings and outcomes are green, asides yellow, errors red.
 * Control characters in tool data are shown escaped, so a result cannot drive the terminal.
 *
 * @example
 * const renderers = new RendererRegistry().addRenderer(new CliRenderer({ color: 'auto' }));
 * console.log(renderers.render(await registry.call('list_notes', {}), ToolContext.cli()));
 */
export class CliRenderer implements ChannelRenderer<string> {
  readonly #color: boolean;

  /** @throws MilpaError `INVALID_ARGUMENT` when `color` is given and is neither a boolean nor `'auto'`. */
  constructor(options: CliRendererOptions = {}) {
    const color = options.color ?? false;
    if (color === 'auto') {
      this.#color = shouldUseColor(options.stream ?? process.stdout, process.env);
      return;
    }
    if (typeof color !== 'boolean') {
      throw new MilpaError("CliRenderer: color must be true, false or 'auto'.", { code: 'INVALID_ARGUMENT' });
    }
    this.#color = color;
  }

  /** True only for `'cli'`. */
  supports(channel: string): boolean {
    return channel === 'cli';
  }

  /**
   * The result as terminal text, every line ending in `\n`.
   * @throws MilpaError `INVALID_ARGUMENT` when `result` is not a `ToolResult`.
   */
  render(result: ToolResult, _context?: ToolContext | null): string {
    if (!ToolResult.isToolResult(result)) {
      throw new MilpaError('CliRenderer.render() needs a ToolResult.', { code: 'INVALID_ARGUMENT' });
    }
    const shape = readRuntimeResultShape(result);
    if (shape !== null) return this.#shape(result, shape);
    switch (result.getType()) {
      case 'list':
        return this.#list(result);
      case 'detail':
        return this.#detail(result);
      case 'confirmation':
        return this.#confirmation(result);
      case 'blocked':
        return this.#blocked(result);
      case 'error':
        return `${this.#paint('error', `✗ Error: ${clean(result.error ?? 'Unknown error')}`)}\n`;
      default:
        return this.#generic(result);
    }
  }

  #shape(result: ToolResult, shape: RuntimeResultShape): string {
    switch (shape.kind) {
      case 'confirmation-request':
        return this.#confirmationRequest(shape.request);
      case 'content':
        return this.#content(result, shape.blocks);
      case 'plan':
        return this.#plan(result, shape.plan);
    }
  }

  /** Wraps already-clean text in a style's ANSI codes when colour is on. */
  #paint(style: TerminalColorStyle, text: string): string {
    return this.#color ? paintTerminalText(style, text) : text;
  }

  /** A value as clean text, tinted by its tone (Yes green, No and N/A yellow). */
  #value(value: unknown): string {
    const { text, tone } = describeValue(value);
    const safe = toTerminalSafeText(text);
    if (tone === 'positive') return this.#paint('info', safe);
    return tone === 'muted' ? this.#paint('comment', safe) : safe;
  }

  #fieldLines(fields: readonly (readonly [string, unknown])[]): string {
    return fields.map(([key, value]) => `  ${clean(toFieldLabel(key))}: ${this.#value(value)}\n`).join('');
  }

  #list(result: ToolResult): string {
    let output = `${this.#paint('info', clean(result.message ?? 'Results'))}\n${RULE}\n`;
    const items = readListItems(result.data);
    if (items.length === 0) {
      output += `${this.#paint('comment', 'No results found.')}\n`;
    } else {
      items.forEach((item, index) => {
        const row = readListRow(item, index);
        const marker = row.available === null ? '' : row.available ? '[OK]' : '[--]';
        output += `  ${marker} #${clean(row.id).padEnd(4)} ${clean(row.name)}\n`;
      });
    }
    const pagination = result.getPagination();
    if (pagination !== null) {
      const footer = `Page ${pagination.page}/${pagination.total_pages} (${pagination.total_items} total items)`;
      output += `${RULE}\n${this.#paint('comment', footer)}\n`;
    }
    return output;
  }

  #detail(result: ToolResult): string {
    const entity = result.meta['entity'];
    let output = this.#paint('info', clean(entity ?? 'Item'));
    if (result.message !== null && result.message !== '') output += ` - ${clean(result.message)}`;
    output += `\n${DOUBLE_RULE}\n`;
    for (const [key, value] of readDataFields(result.data)) {
      output += `  ${this.#paint('comment', `${clean(toFieldLabel(key))}:`.padEnd(15))} ${this.#value(value)}\n`;
    }
    const actions = result.getActions() as readonly unknown[];
    if (actions.length > 0) {
      output += `\n${this.#paint('info', 'Available actions:')}\n`;
      for (const action of actions) output += `  - ${this.#action(action)}\n`;
    }
    return output;
  }

  // Core's detail() takes action names; hosts may also pass {label, action} pairs. Both read well.
  #action(action: unknown): string {
    if (typeof action === 'object' && action !== null && 'action' in action) {
      const pair = action as { label?: unknown; action: unknown };
      return pair.label === undefined ? clean(pair.action) : `${clean(pair.label)}: ${clean(pair.action)}`;
    }
    return clean(action);
  }

  #confirmation(result: ToolResult): string {
    let output =
      `${this.#paint('warning', '⚠ CONFIRMATION REQUIRED')}\n${SHORT_RULE}\n` + `${clean(result.message ?? 'Confirmation required')}\n`;
    const fields = readDataFields(result.data);
    if (fields.length > 0) output += `\n${this.#fieldLines(fields)}`;
    return `${output}\n${this.#paint('comment', "Type 'yes' to confirm or 'no' to cancel.")}\n`;
  }

  #blocked(result: ToolResult): string {
    let output = `${this.#paint('danger', '⛔ OPERATION BLOCKED')}\n${SHORT_RULE}\n`;
    output += `${this.#paint('error', clean(result.error ?? 'Operation blocked'))}\n`;
    const suggestion = result.meta['suggestion'];
    if (suggestion !== null && suggestion !== undefined && suggestion !== '') {
      output += `\n${this.#paint('info', '💡 Suggestion:')} ${clean(suggestion)}\n`;
    }
    return output;
  }

  #generic(result: ToolResult): string {
    const mark = result.success ? this.#paint('info', '✓') : this.#paint('error', '✗');
    const scalar = readScalarData(result.data);
    const headline = result.message ?? result.error;
    if (headline === null && scalar !== null) return `${mark} ${this.#value(scalar)}\n`;
    let output = `${mark} ${clean(headline ?? '')}\n`;
    output += this.#fieldLines(readInformativeFields(result.data));
    if (scalar !== null) output += `  ${this.#value(scalar)}\n`;
    return output;
  }

  #confirmationRequest(request: ConfirmationRequest): string {
    let output = `${this.#paint('warning', '⚠ CONFIRMATION REQUIRED')}\n${SHORT_RULE}\n`;
    output += `${clean(request.summary ?? 'Confirmation required')}\n\n`;
    output += `  Confirm token: ${this.#paint('info', clean(request.token))}\n`;
    if (request.expiresAt !== null) output += `  Expires at: ${clean(request.expiresAt)}\n`;
    return `${output}\n${this.#paint('comment', clean(describeReplay(request)))}\n`;
  }

  #plan(result: ToolResult, plan: PlanPreview): string {
    let output = `${this.#paint('info', `PLAN MODE: '${clean(plan.tool)}' was checked but not executed`)}\n${SHORT_RULE}\n`;
    if (result.message !== null) output += `${clean(result.message)}\n`;
    return output + this.#fieldLines(plan.fields);
  }

  #content(result: ToolResult, blocks: readonly ContentBlock[]): string {
    let output = result.message === null ? '' : `${this.#paint('info', '✓')} ${clean(result.message)}\n`;
    for (const block of blocks) {
      const { text, placeholder } = describeContentBlock(block);
      output += `${placeholder ? this.#paint('comment', clean(text)) : clean(text)}\n`;
    }
    return output === '' ? `${this.#paint('info', '✓')} \n` : output;
  }
}
