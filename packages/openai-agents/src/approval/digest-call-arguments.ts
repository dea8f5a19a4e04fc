import { createHash } from 'node:crypto';

/** Keeps this adapter's digests and ids apart from every other use of SHA-256 on the same values. */
const DIGEST_DOMAIN = 'milpa-openai-agents/arguments/v1\n';
const HELD_CALL_DOMAIN = 'milpa-openai-agents/held-call/v1\n';

/** Sorts an object's keys as JSON.stringify walks into it, so key order at any depth never changes the text. */
function sortingKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0)));
}

/**
 * A digest of a call's arguments as the model sent them, independent of key order, so that two
 * spellings of the same object agree and any other value differs.
 */
export function digestCallArguments(args: Readonly<Record<string, unknown>>): string {
  return createHash('sha256').update(DIGEST_DOMAIN).update(JSON.stringify(args, sortingKeys)).digest('hex');
}

/** Who held a call and which call it is: everything the held call's id is derived from. */
export interface HeldCallKey {
  /** The tool's name. */
  readonly toolName: string;
  /** The model's tool call id. */
  readonly callId: string;
  /** The calling principal, or null. */
  readonly principal: string | null;
  /** The calling channel. */
  readonly channel: string;
  /** The Milpa run, or null. */
  readonly runId: string | null;
}

/**
 * The approval id a run's call is held under: derived from the call id and its caller, so the
 * process that resumes a serialized run finds it without any state of its own. It is a lookup key,
 * not a secret: redeeming it needs the run's own approval and the same caller.
 */
export function heldCallId(key: HeldCallKey): string {
  const material = JSON.stringify([key.toolName, key.callId, key.principal, key.channel, key.runId]);
  return createHash('sha256').update(HELD_CALL_DOMAIN).update(material).digest('hex').slice(0, 32);
}
