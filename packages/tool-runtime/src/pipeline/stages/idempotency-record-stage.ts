import type { ToolResult, ToolResultJson } from '@milpa/core';
import { copyJsonData } from '../../idempotency/copy-json-data.js';
import { describeStep } from '../describe-step.js';
import { isPromiseLike } from '../settle.js';
import type { Stage, StageVerdict, EndedCall } from '../stage.js';

/** Outcomes in which the handler started: the key keeps the result, so a retry never runs it again. */
const RAN: ReadonlySet<string> = new Set(['executed', 'failed', 'timeout']);

/**
 * The result as plain JSON data for the store. A result that is not JSON data (a BigInt, a cycle)
 * is kept without its data, marked `meta.replay_data_omitted`: the call still never runs twice.
 */
function toStoredJson(result: ToolResult): ToolResultJson {
  try {
    const json = result.toJSON();
    const kind = typeof json.data;
    // Data JSON keeps (undefined, a function or a symbol is left out): one literal with the five
    // members, since an object filled member by member keeps its fifth member in a second object.
    if (kind === 'string' || kind === 'number' || kind === 'boolean' || kind === 'object') {
      const { success, message, error } = json;
      return { success, data: copyJsonData(json.data), message, error, meta: copyJsonData(json.meta) as ToolResultJson['meta'] };
    }
    return copyJsonData(json) as ToolResultJson;
  } catch {
    const { success, message, error, meta } = result;
    return JSON.parse(
      JSON.stringify({ success, data: null, message, error, meta: { ...meta, replay_data_omitted: true } }, (_key, value: unknown) =>
        typeof value === 'bigint' ? value.toString() : value,
      ),
    ) as ToolResultJson;
  }
}

/**
 * Settles the idempotency key a call claimed: once its handler has run (executed, failed or timed
 * out), the result it returned is kept for the key's retention, so a retry gets it back; when the
 * call ended before the handler (a refusal), the key is freed and a retry runs for real. A store
 * that fails here is logged; the key then stays in flight until its lease ends, after which a retry
 * is refused as of unknown outcome — never run twice.
 */
export const idempotencyRecordStage: Stage = {
  name: 'idempotency_record',
  phase: 'exit',
  needs: 'result',
  collaborator: 'idempotency store',
  refusesOnAbort: false,
  run(call: EndedCall): StageVerdict {
    const claimed = call.idempotency;
    if (claimed === null) return undefined;
    const settings = call.services.idempotency;
    const pending = RAN.has(call.outcome ?? '')
      ? settings.store.complete(claimed.key, claimed.owner, toStoredJson(call.result), new Date(Date.now()), settings.retentionMs)
      : settings.store.release(claimed.key, claimed.owner);
    if (!isPromiseLike(pending)) return undefined;
    return Promise.resolve(pending).then(() => undefined);
  },
  describe() {
    return [
      describeStep(
        'idempotency_record',
        'outcome',
        'conditional',
        false,
        false,
        'only for a call that claimed an idempotency key: keeps the result once the handler ran (a retry gets it back), frees ' +
          'the key when the call was refused before running',
      ),
    ];
  },
};
