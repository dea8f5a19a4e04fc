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

function wrap(open: string, close: string, color: boolean): (text: string) => string {
  return color ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;
}

/**
 * Whether to colour output written to `stream`: only when it is a terminal, and never when the
 * `NO_COLOR` environment variable is set to a non-empty value (https://no-color.org).
 *
 * @example
 * const color = shouldUseColor(process.stdout, process.env);
 */
export function shouldUseColor(stream: ColorTarget, env: Readonly<Record<string, string | undefined>>): boolean {
  const noColor = env['NO_COLOR'];
  if (noColor !== undefined && noColor !== '') return false;
  return stream.isTTY === true;
}

/**
 * The demo's text styles; plain identity functions when `color` is false, so the same code writes
 * a clean transcript to a pipe or a file.
 *
 * @example
 * const style = createTerminalStyle(shouldUseColor(process.stdout, process.env));
 * console.log(style.bold('Milpa tour'));
 */
export function createTerminalStyle(color: boolean): TerminalStyle {
  return {
    color,
    bold: wrap('1', '22', color),
    dim: wrap('2', '22', color),
    accent: wrap('36', '39', color),
    good: wrap('32', '39', color),
    bad: wrap('31', '39', color),
  };
}
