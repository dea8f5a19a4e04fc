import { styleText } from 'node:util';

/** Text styles for the demo's own output (headings, notes), as ANSI codes or as plain text. */
export interface TerminalStyle {
  /** Whether the styles emit ANSI codes. */
  readonly color: boolean;
  /** Bold. */
  bold(text: string): string;
  /** Dimmed, for asides. */
  dim(text: string): string;
  /** Cyan, for headings and commands. */
  accent(text: string): string;
  /** Green, for an outcome that went as hoped. */
  good(text: string): string;
  /** Red, for a refusal. */
  bad(text: string): string;
}

/** The part of a stream that decides colour. */
export interface ColorTarget {
  /** True when the stream is a terminal. */
  readonly isTTY?: boolean;
}

const FORCE_COLOR_ON: ReadonlySet<string> = new Set(['', '1', '2', '3', 'true']);

type StyleFormat = Parameters<typeof styleText>[0];

function wrap(format: StyleFormat, color: boolean): (text: string) => string {
  // The decision is made once, by shouldUseColor: styleText's own stream check is switched off
  // (recent Node versions would otherwise strip the codes whenever process.stdout is a pipe).
  return color ? (text) => styleText(format, text, { validateStream: false }) : (text) => text;
}

/**
 * Whether to colour output written to `stream`. `FORCE_COLOR` decides first — empty, `1`, `2`, `3`
 * or `true` turn colour on, any other value off, as in Node itself; otherwise a non-empty
 * `NO_COLOR` (https://no-color.org) or `TERM=dumb` turns it off; otherwise colour is used only when
 * the stream is a terminal.
 *
 * @example
 * const color = shouldUseColor(process.stdout, process.env);
 */
export function shouldUseColor(stream: ColorTarget, env: Readonly<Record<string, string | undefined>>): boolean {
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return FORCE_COLOR_ON.has(force);
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  if (env['TERM'] === 'dumb') return false;
  return stream.isTTY === true;
}

/**
 * The demo's text styles, written with `util.styleText`; plain identity functions when `color` is
 * false, so the same code writes a clean transcript to a pipe or a file.
 *
 * @example
 * const style = createTerminalStyle(shouldUseColor(process.stdout, process.env));
 * console.log(style.bold('Milpa tour'));
 */
export function createTerminalStyle(color: boolean): TerminalStyle {
  return {
    color,
    bold: wrap('bold', color),
    dim: wrap('dim', color),
    accent: wrap('cyan', color),
    good: wrap('green', color),
    bad: wrap('red', color),
  };
}
