import { ApprovalVerdict, type ApprovalGate, type ApprovalRequest } from '@milpa/core';
import { toTerminalSafeText } from '../rendering/terminal-safe-text.js';
import { summarizeTidiedArguments } from '../tidying/summarize-tidied-arguments.js';

/** The terminal a {@link terminalApprovalGate} reads answers from: a readable stream that says whether it is a TTY. */
export interface TerminalApprovalInput {
  /** True only for an interactive terminal; anything else means there is nobody to ask. */
  readonly isTTY?: boolean;
  /** Subscribes to the stream's events (`data`, `end`, `close`, `error`). */
  on(event: string, listener: (...args: any[]) => void): unknown;
  /** Unsubscribes. */
  removeListener(event: string, listener: (...args: any[]) => void): unknown;
  /** Stops the flow once an answer is read, so an idle terminal does not keep the process alive. */
  pause?(): unknown;
  /** Starts the flow again for the next question. */
  resume?(): unknown;
}

/** Where a {@link terminalApprovalGate} writes its question. */
export interface TerminalApprovalOutput {
  /** Writes text. */
  write(text: string): unknown;
}

/** Options of {@link terminalApprovalGate}. */
export interface TerminalApprovalGateOptions {
  /** Where answers are read; default `process.stdin`. */
  readonly input?: TerminalApprovalInput;
  /** Where the question is written; default `process.stderr`, so it never mixes with a command's output. */
  readonly output?: TerminalApprovalOutput;
}

const NO_TERMINAL = 'There is no interactive terminal to ask for approval, so the call is denied.';
const ANSWERED_NO = 'The operator answered no at the terminal.';
const CLOSED = 'The terminal closed before the operator answered.';
const ABORTED = 'The caller gave up before the operator answered.';
const YES: ReadonlySet<string> = new Set(['y', 'yes']);

function isAborted(signal: AbortSignal | null): boolean {
  return signal?.aborted === true;
}

function describeCall(request: ApprovalRequest): string {
  let args: string;
  try {
    args = JSON.stringify(request.redactedArguments);
  } catch {
    args = '{…}';
  }
  const who = request.principal === null ? `on ${request.channel}` : `by ${request.principal} on ${request.channel}`;
  const tidied = request.tidied ?? [];
  const changed = tidied.length === 0 ? '' : ` [tidied: ${summarizeTidiedArguments(tidied)}]`;
  return toTerminalSafeText(`Approve ${request.toolName}(${args})${changed} ${who}? [y/N] `);
}

/**
 * An approval gate that asks a person at an interactive terminal: it shows the tool and its
 * redacted arguments and waits for a line; `y` or `yes` allows the call, anything else denies it.
 * Without an interactive terminal (`input.isTTY` is not true: a pipe, a service, a web request) it
 * denies at once, and so it does when the terminal closes or the caller aborts before an answer.
 * Questions are asked one at a time; a line typed ahead answers the next question.
 *
 * @example
 * const registry = new ToolRegistry({ approvalGate: terminalApprovalGate() });
 * // Approve delete_note({"id":"n1"}) by cli on cli? [y/N]
 */
export function terminalApprovalGate(options: TerminalApprovalGateOptions = {}): ApprovalGate {
  const input: TerminalApprovalInput = options.input ?? process.stdin;
  const output: TerminalApprovalOutput = options.output ?? process.stderr;
  let buffered = '';
  let queue: Promise<unknown> = Promise.resolve();

  const readLine = (signal: AbortSignal | null): Promise<string | null> =>
    new Promise((resolve) => {
      const finish = (line: string | null) => {
        input.removeListener('data', onData);
        input.removeListener('end', onClosed);
        input.removeListener('close', onClosed);
        input.removeListener('error', onClosed);
        signal?.removeEventListener('abort', onClosed);
        input.pause?.();
        resolve(line);
      };
      const take = (): boolean => {
        const end = buffered.indexOf('\n');
        if (end === -1) return false;
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        finish(line);
        return true;
      };
      const onData = (chunk: unknown) => {
        buffered += typeof chunk === 'string' ? chunk : String(chunk);
        take();
      };
      const onClosed = () => finish(null);
      if (isAborted(signal)) return resolve(null);
      if (take()) return undefined;
      input.on('data', onData);
      input.resume?.();
      input.on('end', onClosed);
      input.on('close', onClosed);
      input.on('error', onClosed);
      signal?.addEventListener('abort', onClosed, { once: true });
      return undefined;
    });

  const ask = async (request: ApprovalRequest): Promise<ApprovalVerdict> => {
    if (isAborted(request.signal)) return ApprovalVerdict.deny(ABORTED);
    output.write(describeCall(request));
    const line = await readLine(request.signal);
    if (line === null) return ApprovalVerdict.deny(isAborted(request.signal) ? ABORTED : CLOSED);
    return YES.has(line.trim().toLowerCase()) ? ApprovalVerdict.allow() : ApprovalVerdict.deny(ANSWERED_NO);
  };

  return Object.freeze({
    check(request: ApprovalRequest): ApprovalVerdict | Promise<ApprovalVerdict> {
      if (input.isTTY !== true) return ApprovalVerdict.deny(NO_TERMINAL);
      // One question at a time: two calls must never read the same answer.
      const answer = queue.then(() => ask(request));
      queue = answer.catch(() => undefined);
      return answer;
    },
  });
}
