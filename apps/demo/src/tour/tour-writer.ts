import type { ToolContext, ToolResult } from '@milpa/core';
import type { RendererRegistry } from '@milpa/tool-runtime/rendering';
import type { TerminalStyle } from '../output/terminal-style.js';

const RESULT_INDENT = '    ';

/**
 * How a caller reads in a call line: `cli on cli, scopes *`, `(anonymous) on mcp, no scopes`, or
 * with the run it belongs to, `agent:pruner on mcp, scopes notes:write, run r1`.
 */
export function describeCaller(context: ToolContext): string {
  const actor = context.principal === null || context.principal === '' ? '(anonymous)' : context.principal;
  const scopes = context.scopes.length === 0 ? 'no scopes' : `scopes ${context.scopes.join(' ')}`;
  const mode = context.mode === 'plan' ? ', plan mode' : '';
  const run = context.runId === null ? '' : `, run ${context.runId}`;
  return `${actor} on ${context.channel}, ${scopes}${mode}${run}`;
}

/**
 * Writes the tour's narrative: section headings, the call being made, the result as the
 * registry's renderers present it for the caller's channel, and asides. Values registered with
 * {@link TourWriter.mask} (confirm tokens, expiry times) are replaced by a stable label in
 * everything written afterwards, so the transcript is identical on every run.
 *
 * @example
 * const writer = new TourWriter((text) => process.stdout.write(text), style, demo.renderers);
 * writer.section(1, 'A call from the terminal', 'The local operator lists the notes.');
 */
export class TourWriter {
  readonly #write: (text: string) => void;
  readonly #style: TerminalStyle;
  readonly #renderers: RendererRegistry;
  readonly #masks: [value: string, label: string][] = [];

  /** Writes through `write`, styling with `style` and rendering results with `renderers`. */
  constructor(write: (text: string) => void, style: TerminalStyle, renderers: RendererRegistry) {
    this.#write = write;
    this.#style = style;
    this.#renderers = renderers;
  }

  /** The styles in use. */
  get style(): TerminalStyle {
    return this.#style;
  }

  /** From now on, prints `value` as `‹label›`. Empty values are ignored. */
  mask(value: string | null | undefined, label: string): void {
    if (typeof value === 'string' && value !== '') this.#masks.push([value, `‹${label}›`]);
  }

  /** Writes `text` as it is (after masking). */
  raw(text: string): void {
    let output = text;
    for (const [value, label] of this.#masks) output = output.replaceAll(value, label);
    this.#write(output);
  }

  /** A line of narrative, indented by two spaces. */
  line(text = ''): void {
    this.raw(text === '' ? '\n' : `  ${text}\n`);
  }

  /** A dimmed aside, marked with an arrow. */
  note(text: string): void {
    this.raw(`  ${this.#style.dim(`↳ ${text}`)}\n`);
  }

  /** A numbered section heading and its one-line introduction. */
  section(number: number, title: string, intro: string): void {
    this.raw(`\n${this.#style.bold(this.#style.accent(`${number}. ${title}`))}\n`);
    this.line(intro);
  }

  /** The call about to be made: tool, arguments and caller. */
  call(name: string, args: Readonly<Record<string, unknown>>, context: ToolContext): void {
    this.raw(
      `  ${this.#style.accent('›')} ${this.#style.bold(name)} ${JSON.stringify(args)}  ` +
        `${this.#style.dim(`as ${describeCaller(context)}`)}\n`,
    );
  }

  /** The resumption of a held call with `registry.resume(approvalId, context)`. */
  resume(approvalId: string, context: ToolContext): void {
    this.raw(
      `  ${this.#style.accent('›')} ${this.#style.bold('registry.resume')}(${JSON.stringify(approvalId)})  ` +
        `${this.#style.dim(`as ${describeCaller(context)}`)}\n`,
    );
  }

  /** The result as the renderers present it for `context.channel`, indented, plus its code when it failed. */
  result(result: ToolResult, context: ToolContext): void {
    const rendered = String(this.#renderers.render(result, context)).replace(/\n+$/, '');
    this.raw(
      `${rendered
        .split('\n')
        .map((line) => (line === '' ? '' : `${RESULT_INDENT}${line}`))
        .join('\n')}\n`,
    );
    const code = result.getCode();
    if (!result.success && code !== null) this.raw(`${RESULT_INDENT}${this.#style.bad(`[${code}]`)}\n`);
  }
}
