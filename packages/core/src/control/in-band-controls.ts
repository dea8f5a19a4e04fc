import { isRecord } from '../kit/is-record.js';

/**
 * The control values a model may put among a tool's arguments, by argument name: the confirmation
 * token a confirmation asked it to send back, and the approval id of a call held for approval.
 */
export const IN_BAND_CONTROL_KEYS = Object.freeze(['confirm_token', 'approval_id'] as const);

/** One of {@link IN_BAND_CONTROL_KEYS}. */
export type InBandControlKey = (typeof IN_BAND_CONTROL_KEYS)[number];

/** The control values read from a model's arguments, as call options. */
export interface InBandControls {
  /** From `confirm_token`: the confirmation token to redeem. */
  readonly confirmToken?: string;
  /** From `approval_id`: the held call to resume. */
  readonly approvalId?: string;
}

/** What a boundary does with the control values a model sends. */
export interface InBandControlPolicy {
  /**
   * The control values this boundary carries in-band (its protocol asks the model to send them
   * back). Any other control value a model sends is refused. Default: both.
   */
  readonly accept?: readonly InBandControlKey[];
}

/** The arguments without control values, and the control values as call options. */
export interface InBandControlsRead {
  /** Discriminant: the arguments may go on to the registry. */
  readonly ok: true;
  /** The arguments as the tool declares them: the control keys taken out, nothing else changed. */
  readonly args: unknown;
  /** The control values, to pass as call options. */
  readonly controls: InBandControls;
}

/** A control value this boundary does not carry: the call is refused before the registry sees it. */
export interface InBandControlRefusal {
  /** Discriminant: the call must be refused. */
  readonly ok: false;
  /** Always `VALIDATION_ERROR`. */
  readonly code: 'VALIDATION_ERROR';
  /** The argument that was refused. */
  readonly key: InBandControlKey;
  /** What the model is told: names the argument and why it is refused. */
  readonly message: string;
}

const OPTION_OF: Readonly<Record<InBandControlKey, keyof InBandControls>> = Object.freeze({
  confirm_token: 'confirmToken',
  approval_id: 'approvalId',
});

/**
 * Reads the control values a model put among a tool's arguments, with the one policy every
 * model-facing boundary (MCP server, gateway, framework adapters) applies:
 *
 * - a key this boundary carries (`policy.accept`) is taken out of the arguments and returned as a
 *   call option; the registry then checks it (a token is one-use and bound to its caller, an
 *   approval id to its tool, arguments, caller and run);
 * - a value that is not a string is passed on as an empty string, which matches no token and no
 *   approval, so the registry refuses the call as invalid — it is never silently ignored;
 * - `null` or a missing key means no control value;
 * - a key this boundary does not carry is refused (`ok: false`) — never silently dropped — so a
 *   model cannot smuggle a control value past a boundary whose framework handles that flow itself.
 *
 * The tool's handler, validation and audit never see these keys. Arguments that are not an object
 * are returned unchanged.
 *
 * @example
 * const read = readInBandControls(args, { accept: ['confirm_token', 'approval_id'] });
 * if (!read.ok) return ToolResult.failure(read.code, read.message);
 * return registry.call(name, read.args, context, { ...read.controls, signal });
 */
export function readInBandControls(args: unknown, policy: InBandControlPolicy = {}): InBandControlsRead | InBandControlRefusal {
  if (!isRecord(args)) return { ok: true, args, controls: {} };
  const accept = policy.accept ?? IN_BAND_CONTROL_KEYS;
  let rest: Record<string, unknown> | null = null;
  const controls: { confirmToken?: string; approvalId?: string } = {};
  for (const key of IN_BAND_CONTROL_KEYS) {
    if (!Object.hasOwn(args, key)) continue;
    const value = args[key];
    if (value !== null && value !== undefined) {
      if (!accept.includes(key)) {
        return {
          ok: false,
          code: 'VALIDATION_ERROR',
          key,
          message: `The argument '${key}' is reserved: this tool call cannot carry it here. Call the tool with its own arguments only.`,
        };
      }
      controls[OPTION_OF[key]] = typeof value === 'string' ? value : '';
    }
    rest ??= { ...args };
    delete rest[key];
  }
  return { ok: true, args: rest ?? args, controls };
}
