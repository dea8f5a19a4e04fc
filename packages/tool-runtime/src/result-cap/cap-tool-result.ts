import { MilpaError, ToolResult, type CallOutcome, type ToolResultMeta } from '@milpa/core';
import type { ResultPartSizes } from '../audit/tool-audit-record.js';
import { cutContentBlocks, isContentData, jsonSize, partText, truncationNote, type PartText } from './cap-result-data.js';
import { cutText, cutWithMark, shrinkValue } from './shrink-value.js';
import { textSizeWithin } from './text-size.js';

/**
 * The `meta` keys the runtime itself writes. Their entries stay whole, outside the budget, while
 * each is at most {@link RUNTIME_ENTRY_CHARS} characters and together at most
 * {@link RUNTIME_ALLOWANCE}; past that (a tool that writes them itself, huge) they count as content.
 */
export const RUNTIME_META_KEYS: ReadonlySet<string> = new Set([
  'tool',
  'took_ms',
  'request_id',
  'channel',
  'principal',
  'code',
  'type',
  'truncated',
  'original_chars',
  'max_chars',
  'original_sizes',
  'timeout_exceeded',
  'execution_time',
  'timeout_limit',
  'requires_confirmation',
  'requires_approval',
  'approval_id',
  'expires_at',
  'approval_refusal',
  'blocked_by_rule',
  'retry_after_seconds',
  'idempotent_replay',
  'rule',
  'reason',
  'store',
  'run_id',
  // What the MCP gateway writes about the upstream that answered.
  'upstream',
  'upstream_error',
  'upstream_code',
]);

/** Characters one runtime entry may take and stay outside the budget. */
const RUNTIME_ENTRY_CHARS = 128;

/** Characters all runtime entries together may take outside the budget. */
export const RUNTIME_ALLOWANCE = 1_024;

/** Size of a runtime entry, or -1 when `key` is not one or its value is too big to stay whole. */
function runtimeEntrySize(key: string, value: unknown): number {
  if (!RUNTIME_META_KEYS.has(key)) return -1;
  const size =
    typeof value === 'string'
      ? value.length + 2
      : typeof value === 'number' || typeof value === 'boolean' || value === null
        ? 24
        : textSizeWithin(value, RUNTIME_ENTRY_CHARS);
  return size <= RUNTIME_ENTRY_CHARS ? size + key.length + 4 : -1;
}

function partSize(value: unknown, limit: number): number {
  if (value === null || value === undefined) return 0;
  return typeof value === 'string' ? value.length : textSizeWithin(value, limit);
}

/**
 * True when the result surely fits: an upper bound of its content is within `maxChars`. Walks
 * each part only as far as the limit, so a small result costs a few steps and no serialization.
 * The first pass counts every meta entry (no lookups); only a result it cannot clear is counted
 * again without the runtime's own entries.
 */
function surelyFits(result: ToolResult, maxChars: number): boolean {
  let total = partSize(result.data, maxChars);
  if (total > maxChars) return false;
  total += partSize(result.message, maxChars) + partSize(result.error, maxChars);
  if (total > maxChars) return false;
  const meta = result.meta;
  let all = total;
  // for…in, not Object.keys: no array per call on the hot path (meta is a plain object).
  for (const key in meta) {
    const value = meta[key];
    all +=
      key.length +
      4 +
      (typeof value === 'string'
        ? value.length + 2
        : typeof value === 'number' || typeof value === 'boolean' || value === null
          ? 24
          : textSizeWithin(value, maxChars));
    if (all > maxChars) return fitsWithoutRuntimeEntries(meta, total, maxChars);
  }
  return true;
}

/** {@link surelyFits} for the meta, its runtime entries (up to the allowance) left out of the count. */
function fitsWithoutRuntimeEntries(meta: ToolResultMeta, counted: number, maxChars: number): boolean {
  let total = counted;
  let runtime = 0;
  for (const key in meta) {
    const value = meta[key];
    const size = runtimeEntrySize(key, value);
    if (size >= 0 && runtime + size <= RUNTIME_ALLOWANCE) {
      runtime += size;
      continue;
    }
    total += key.length + 4 + textSizeWithin(value, maxChars - total);
    if (total > maxChars) return false;
  }
  return true;
}

/** The meta split into the runtime's own entries (kept whole) and the tool's (content). */
function splitMeta(meta: ToolResultMeta): { runtime: Record<string, unknown>; content: Record<string, unknown> } {
  const runtime: Record<string, unknown> = {};
  const content: Record<string, unknown> = {};
  let used = 0;
  for (const key of Object.keys(meta)) {
    const value = meta[key];
    const size = runtimeEntrySize(key, value);
    if (size >= 0 && used + size <= RUNTIME_ALLOWANCE) {
      runtime[key] = value;
      used += size;
    } else content[key] = value;
  }
  return { runtime, content };
}

/**
 * How `budget` is shared among parts of `sizes`: a part that fits an equal share of what is left
 * keeps all of it, and the parts that do not split the rest evenly (smallest first), so a short
 * message is never cut because the data is long.
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] {
  const order = sizes.map((_, index) => index).sort((a, b) => (sizes[a] as number) - (sizes[b] as number));
  const shares = sizes.map(() => 0);
  let left = Math.max(0, budget);
  order.forEach((index, position) => {
    const share = Math.floor(left / (order.length - position));
    const given = Math.min(sizes[index] as number, share);
    shares[index] = given;
    left -= given;
  });
  return shares;
}

/**
 * A part within `share`: whole, or cut; the part that carries the note ends with it (and is the
 * note alone when the part was empty), any other cut part ends with a mark.
 */
function fitText(part: PartText | null, share: number, note: string | null): string | null {
  if (part === null) return note === null ? null : note.trimStart();
  const { text, size } = part;
  if (size <= share) return note === null ? text : text + (text === '' ? note.trimStart() : note);
  return note === null ? cutWithMark(text, share) : cutText(text, share) + note;
}

/**
 * True for data the runtime built (a plan, a confirmation request, a held call, a refusal): it is
 * cut keeping its shape, so its token, id or plan stays readable. A tool's data is cut as text.
 */
function keepsShape(outcome: CallOutcome | null): boolean {
  return outcome !== null && outcome.kind !== 'executed' && outcome.kind !== 'replayed';
}

/** A refusal's or failure's outcome carrying the cut error as its reason; any other outcome as it is. */
function outcomeWith(outcome: CallOutcome | null, error: string | null, original: unknown): CallOutcome | null {
  if (outcome === null || error === null || error === original) return outcome;
  if ((outcome.kind === 'refused' || outcome.kind === 'failed') && outcome.reason === original) {
    return Object.freeze({ ...outcome, reason: error });
  }
  return outcome;
}

/**
 * The result cut to the cap, or null when it fits (the common case, decided without serializing
 * a small result). The cap covers everything the model reads: `data`, `message`, `error` and the
 * `meta` entries the tool wrote, for every outcome. They share `maxChars` characters, the note
 * included (a cap too small for the note keeps half of it for the content): a part that fits an
 * equal share stays whole and the longer parts split the rest. A string is cut without splitting
 * a surrogate pair; data that is not a string is cut as its JSON text (content blocks block by
 * block; the data the runtime built for a plan, a confirmation, a held call or a refusal keeping
 * its shape, its token or id); meta keeps its first entries, its shape and the runtime's own
 * entries. One note says the result was cut (at the end of `error` for a failure, else of the
 * data when it was cut as text, else of `message`), any other cut text ends with `' […]'`, and
 * `meta` gains `truncated`, `original_chars`, `max_chars` and `original_sizes`. A `maxChars` of 0
 * turns the cap off.
 *
 * The registry runs it on every call (option `maxResultTokens`); a host that builds results
 * elsewhere (a proxy, a cache) can cap them the same way.
 *
 * @example
 * const result = ToolResult.success('x'.repeat(50_000));
 * const shown = capToolResult(result, 10_000) ?? result;
 * shown.meta; // { truncated: true, original_chars: 50000, max_chars: 10000, original_sizes: { data: 50000, … } }
 * @throws MilpaError `INVALID_ARGUMENT` when `result` is not a `ToolResult` or `maxChars` is not a whole number ≥ 0.
 */
export function capToolResult(result: ToolResult, maxChars: number): ToolResult | null {
  if (!ToolResult.isToolResult(result)) {
    throw new MilpaError('capToolResult: result must be a ToolResult.', { code: 'INVALID_ARGUMENT' });
  }
  if (typeof maxChars !== 'number' || !Number.isSafeInteger(maxChars) || maxChars < 0) {
    throw new MilpaError(`capToolResult: maxChars must be a whole number of characters, 0 or more; got ${String(maxChars)}.`, {
      code: 'INVALID_ARGUMENT',
    });
  }
  return maxChars === 0 ? null : capResult(result, maxChars);
}

/** {@link capToolResult} without checking its input: what the registry runs on every call, with a cap above 0. */
export function capResult(result: ToolResult, maxChars: number): ToolResult | null {
  if (surelyFits(result, maxChars)) return null;
  const { runtime, content } = splitMeta(result.meta);
  const data = partText(result.data, maxChars);
  const message = partText(result.message, maxChars);
  const error = partText(result.error, maxChars);
  const sizes: ResultPartSizes = {
    data: data?.size ?? 0,
    message: message?.size ?? 0,
    error: error?.size ?? 0,
    meta: Object.keys(content).length === 0 ? 0 : jsonSize(content),
  };
  const originalChars = sizes.data + sizes.message + sizes.error + sizes.meta;
  if (originalChars <= maxChars) return null;
  const note = truncationNote(originalChars, maxChars);
  const [dataShare, messageShare, errorShare, metaShare] = shareBudget(
    [sizes.data, sizes.message, sizes.error, sizes.meta],
    // The note counts against the cap, except that the content keeps at least half of a cap too small for it.
    Math.max(maxChars - note.length, Math.floor(maxChars / 2)),
  ) as [number, number, number, number];
  const dataCut = sizes.data > dataShare;
  const shaped = keepsShape(result.outcome) && !isContentData(result.data, result.meta['type']);
  // Data cut keeping its shape has no end to put the note at: the message carries it then.
  const noteOn = !result.success ? 'error' : dataCut && !shaped ? 'data' : 'message';
  let cutData: unknown = result.data;
  if (dataCut) {
    const dataNote = noteOn === 'data' ? note : null;
    if (shaped) cutData = shrinkValue(result.data, dataShare).value;
    else if (isContentData(result.data, result.meta['type'])) cutData = cutContentBlocks(result.data, dataShare, dataNote);
    else cutData = fitText(data, dataShare, dataNote);
  }
  const cutMessage = message === null && noteOn !== 'message' ? null : fitText(message, messageShare, noteOn === 'message' ? note : null);
  const cutError = error === null && noteOn !== 'error' ? null : fitText(error, errorShare, noteOn === 'error' ? note : null);
  const metaContent = sizes.meta > metaShare ? (shrinkValue(content, metaShare).value as Record<string, unknown>) : content;
  const meta = Object.freeze({
    ...runtime,
    ...metaContent,
    truncated: true,
    original_chars: originalChars,
    max_chars: maxChars,
    original_sizes: Object.freeze(sizes),
  });
  return new ToolResult(result.success, cutData, cutMessage, cutError, meta, outcomeWith(result.outcome, cutError, result.error));
}
