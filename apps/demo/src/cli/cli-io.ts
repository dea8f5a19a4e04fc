import type { TerminalApprovalInput } from '@milpa/tool-runtime';

/** Where the CLI reads its environment and writes its output, so tests can run it in process. */
export interface CliIo {
  /** Writes to standard output. */
  readonly stdout: (text: string) => void;
  /** Writes to standard error. */
  readonly stderr: (text: string) => void;
  /** True when standard output is a terminal (colour is used only then). */
  readonly stdoutIsTTY: boolean;
  /** The environment (`FORCE_COLOR`, `NO_COLOR` and `TERM=dumb` are honoured). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /**
   * Where `call --approve` reads the operator's y/n answers (`process.stdin`); it asks only when
   * this is an interactive terminal. Absent, there is no terminal to ask, and mutating calls are denied.
   */
  readonly stdin?: TerminalApprovalInput;
}

/** The exit statuses of the CLI. */
export const ExitCode = Object.freeze({
  /** The command did what was asked; for `call`, the result was a success. */
  OK: 0,
  /** `call`: the pipeline refused the call or the tool failed. */
  REFUSED: 1,
  /** Bad input: an unknown command, option or tool, or invalid `--args`. */
  USAGE: 2,
  /** An unexpected fault in the demo itself. */
  INTERNAL: 70,
} as const);

/** One of the {@link ExitCode} values. */
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
