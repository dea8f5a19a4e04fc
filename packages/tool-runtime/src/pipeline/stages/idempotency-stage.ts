import { ToolErrorCode, ToolResult, generateRandomId, type IdempotencyBegin, type ToolResultJson } from '@milpa/core';
import { digestArguments } from '../../approval/digest-arguments.js';
import { REPLAYED } from '../call-outcomes.js';
import { describeStep } from '../describe-step.js';
import { CALLER_ABORTED, isPromiseLike, untilCallerAborts } from '../settle.js';
import type { STOP, Stage, StageVerdict, ValidatedCall } from '../stage.js';

/** The longest idempotency key accepted, in characters. */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

// Printable text only: a key is logged and may be a Redis key.
const CONTROL = /[\u0000-\u001f\u007f]/;

/** How long a call waits between two looks at a key whose first call is in flight: from 10 ms, doubling, at most 250 ms. */
const FIRST_WAIT_MS = 10;
const LONGEST_WAIT_MS = 250;

function isResultJson(value: unknown): value is ToolResultJson {
  if (typeof value !== 'object' || value === null) return false;
  const { success, message, error, meta } = value as Partial<Record<keyof ToolResultJson, unknown>>;
  return (
    typeof success === 'boolean' &&
    (message === null || typeof message === 'string') &&
    (error === null || typeof error === 'string') &&
    typeof meta === 'object' &&
    meta !== null &&
    !Array.isArray(meta)
  );
}

function isBeginAnswer(value: unknown): value is IdempotencyBegin {
  if (typeof value !== 'object' || value === null) return false;
  const { status } = value as { status?: unknown };
  if (status === 'started' || status === 'in_flight' || status === 'abandoned') return true;
  if (status === 'replay') return isResultJson((value as { result?: unknown }).result);
  if (status !== 'conflict') return false;
  const { reason } = value as { reason?: unknown };
  return reason === 'tool_differs' || reason === 'principal_differs' || reason === 'arguments_differ';
}

/**
 * The store key: the caller's key scoped to the principal, so principals never share keys. Durable
 * stores hold keys written this way. `JSON.stringify` returns one flat string, which a store keeps
 * for the key's whole retention; a key joined from pieces would keep a chain of them.
 */
function scopedKey(principal: string | null, key: string): string {
  return JSON.stringify([principal, key]);
}

function refuseKey(call: ValidatedCall, message: string): typeof STOP {
  call.errors = Object.freeze([message]);
  return call.refuse(ToolErrorCode.VALIDATION_ERROR, message, 'validation_failed', { errors: [{ path: 'idempotencyKey', message }] });
}

const CONFLICTS: Readonly<Record<'tool_differs' | 'principal_differs' | 'arguments_differ', string>> = Object.freeze({
  tool_differs: 'was first used for another tool',
  principal_differs: 'was first used by another principal',
  arguments_differ: 'was first used with other arguments',
});

/** The first call's result, answered again: its data and message, this call's request id and duration, `meta.idempotent_replay`. */
function replay(call: ValidatedCall, first: ToolResultJson): typeof STOP {
  const meta = Object.freeze({ ...first.meta, ...call.meta(), idempotent_replay: true });
  const result = new ToolResult(first.success, first.data, first.message, first.error, meta, REPLAYED);
  return call.end(result, REPLAYED, 'idempotent replay');
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, milliseconds);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Acts on the store's answer; while the first call is in flight, asks again after `waitMs`. */
function decide(call: ValidatedCall, key: string, owner: string, digest: string, answer: unknown, waitMs: number): StageVerdict {
  if (!isBeginAnswer(answer))
    return call.failClosed('idempotency store', new TypeError('the store answered something that is not an idempotency answer'));
  switch (answer.status) {
    case 'started':
      call.idempotency = { key, owner };
      return undefined;
    case 'replay':
      return replay(call, answer.result);
    case 'conflict':
      return call.refuse(
        ToolErrorCode.CONFLICT,
        `The idempotency key ${CONFLICTS[answer.reason]}; nothing ran. Use a new key for a different call.`,
        'refused',
        { idempotency_refusal: answer.reason },
      );
    case 'abandoned':
      return call.refuse(
        ToolErrorCode.CONFLICT,
        'The first call with this idempotency key never finished, so whether it ' +
          'ran is unknown; nothing ran again. Check the outcome, then use a new key.',
        'refused',
        { idempotency_refusal: 'outcome_unknown' },
      );
    case 'in_flight': {
      const signal = call.options?.signal;
      if (signal?.aborted === true) return call.callerAborted();
      return sleep(waitMs, signal).then(() =>
        signal?.aborted === true ? call.callerAborted() : begin(call, key, owner, digest, Math.min(waitMs * 2, LONGEST_WAIT_MS)),
      );
    }
  }
}

function begin(call: ValidatedCall, key: string, owner: string, digest: string, waitMs: number): StageVerdict {
  const settings = call.services.idempotency;
  const claim = {
    key,
    toolName: call.toolName,
    principal: call.context.principal,
    argumentsDigest: digest,
    owner,
    at: new Date(Date.now()),
    leaseMs: settings.leaseMs,
    retentionMs: settings.retentionMs,
  };
  let answer: unknown;
  try {
    answer = settings.store.begin(claim);
  } catch (error) {
    return call.failClosed('idempotency store', error);
  }
  if (!isPromiseLike(answer)) return decide(call, key, owner, digest, answer, waitMs);
  return Promise.resolve(untilCallerAborts(answer, call.options?.signal)).then(
    (settled) => decide(call, key, owner, digest, settled, waitMs),
    (error: unknown) => (error === CALLER_ABORTED ? call.callerAborted() : call.failClosed('idempotency store', error)),
  );
}

/**
 * Runs a call that carries an idempotency key (`call(name, args, context, { idempotencyKey })`)
 * at most once per key: the first call with a key claims it and runs; a later call with the same
 * key, tool, principal and validated arguments gets the first call's result back
 * (`meta.idempotent_replay`), without running, and while the first is still in flight it waits for
 * it (bounded by the caller's signal). The same key with another tool or other arguments is refused
 * with `CONFLICT`. A first call that ran nothing (it was refused later in the pipeline) frees its key.
 * Keys are scoped to the principal. A store that fails refuses the call (fail-closed).
 */
export const idempotencyStage: Stage = {
  name: 'idempotency',
  phase: 'gate',
  needs: 'arguments',
  collaborator: 'idempotency store',
  refusesOnAbort: true,
  run(call: ValidatedCall): StageVerdict {
    const key = call.options?.idempotencyKey;
    if (key === undefined) return undefined;
    if (typeof key !== 'string' || key === '' || key.length > MAX_IDEMPOTENCY_KEY_LENGTH || CONTROL.test(key)) {
      return refuseKey(call, `idempotencyKey must be a string of 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} printable characters.`);
    }
    return begin(call, scopedKey(call.context.principal, key), generateRandomId(), digestArguments(call.args), FIRST_WAIT_MS);
  },
  describe() {
    return [
      describeStep(
        'idempotency',
        'branch',
        'conditional',
        true,
        false,
        'only for a call with an idempotencyKey: the first call with a key runs; a retry with the same key, tool, principal and ' +
          'arguments gets the first result back without running (waiting while the first is in flight); the key with other ' +
          'arguments is refused (CONFLICT)',
      ),
    ];
  },
};
