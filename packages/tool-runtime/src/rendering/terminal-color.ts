import { styleText } from 'node:util';

/** The styles a terminal renderer uses: green, yellow, red, and bold yellow / bold red headings. */
export type TerminalColorStyle = 'info' | 'comment' | 'error' | 'warning' | 'danger';

/** The part of an output stream that colour detection reads. */
export interface ColorStream {
  /** True when the stream is a terminal. */
  readonly isTTY?: boolean;
}

const FORCE_COLOR_ON: ReadonlySet<string> = new Set(['', '1', '2', '3', 'true']);

type StyleFormat = Parameters<typeof styleText>[0];

const FORMATS: Readonly<Record<TerminalColorStyle, StyleFormat>> = Object.freeze<Record<TerminalColorStyle, StyleFormat>>({
  info: 'green',
  comment: 'yellow',
  error: 'red',
  warning: ['bold', 'yellow'],
  danger: ['bold', 'red'],
});

/**
 * Whether text written to `stream` should carry colour, following the usual conventions:
 * `FORCE_COLOR` decides first, whatever the stream — empty, `1`, `2`, `3` or `true` turn colour on,
 * any other value (such as `0` or `false`) turns it off, as in Node itself; otherwise a non-empty `NO_COLOR` (https://no-color.org) or
 * `TERM=dumb` turns it off; otherwise colour is on only when the stream is a terminal.
 *
 * @example
 * shouldUseColor(process.stdout, process.env); // false when piped, or with NO_COLOR=1
 */
export function shouldUseColor(stream: ColorStream | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return FORCE_COLOR_ON.has(force);
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return stream?.isTTY === true;
}

/**
 * `text` wrapped in the ANSI codes of `style`. The caller has already decided that colour is on:
 * the stream check of `util.styleText` is switched off (recent Node versions would otherwise
 * strip the codes whenever `process.stdout` is not a terminal), so output depends only on that
 * decision. Each style closes only what it opened, so styles nest.
 *
 * @example
 * paintTerminalText('error', '✗ Error: disk full'); // '\u001b[31m✗ Error: disk full\u001b[39m'
 */
export function paintTerminalText(style: TerminalColorStyle, text: string): string {
  return styleText(FORMATS[style], text, { validateStream: false });
}
