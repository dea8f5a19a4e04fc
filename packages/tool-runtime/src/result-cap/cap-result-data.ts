import { isContentBlock, type ContentBlock } from '@milpa/core';
import { CUT_MARK, cutText, cutWithMark, shrinkValue } from './shrink-value.js';
import { WHOLE_SIZE_LIMIT, textSizeWithin } from './text-size.js';

/** The note a cut result ends with, telling the model how to get the rest. */
export function truncationNote(originalChars: number, maxChars: number): string {
  return (
    `\n\n[Result truncated: it was ${originalChars} characters, over the limit of ${maxChars}. Narrow the request, or page ` +
    `with offset to read the rest.]`
  );
}

/** The text of a part of a result as the model reads it, and the characters of the part before any cut. */
export interface PartText {
  /** The part as text (a string as it is, anything else as JSON text). */
  readonly text: string;
  /** Characters of the part: the text's length, or an upper bound (at most 1,000,001) when JSON cannot write the part. */
  readonly size: number;
}

/**
 * The text of `value` as the model reads it: a string as it is, anything else as its JSON text;
 * null for null or undefined. A value JSON cannot write (too deep, a cycle, a BigInt, a throwing
 * `toJSON`) is written from its cut form, at most about `limit` characters, and its size is an
 * upper bound of its whole text, so it is cut and never escapes the cap.
 */
export function partText(value: unknown, limit: number): PartText | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return { text: value, size: value.length };
  try {
    const json = JSON.stringify(value);
    if (json !== undefined) return { text: json, size: json.length };
  } catch {
    // Written from its cut form below.
  }
  let text = '';
  try {
    text = JSON.stringify(shrinkValue(value, limit + 1).value) ?? '';
  } catch {
    text = '';
  }
  return { text, size: Math.max(text.length, textSizeWithin(value, WHOLE_SIZE_LIMIT)) };
}

/** Characters of the JSON text of `value` (an upper bound when JSON cannot write it). */
export function jsonSize(value: unknown): number {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? 0 : json.length;
  } catch {
    return textSizeWithin(value, WHOLE_SIZE_LIMIT);
  }
}

/** True when `data` is the content blocks of a `ToolResult.content` result. */
export function isContentData(data: unknown, type: unknown): data is readonly ContentBlock[] {
  return type === 'content' && Array.isArray(data) && data.every(isContentBlock);
}

function blockSize(block: ContentBlock): number {
  if (block.type === 'text') return block.text.length;
  if (block.type === 'image' || block.type === 'audio') return block.data.length;
  return jsonSize(block);
}

/**
 * Content blocks cut to `budget` characters (text, base64 data, other blocks at their JSON size):
 * blocks are kept in order while they fit, a text block that does not fit is cut, any other block
 * that does not fit is left out (half an image is no image), and the rest is dropped. `note` ends
 * the blocks as a text block of its own.
 */
export function cutContentBlocks(blocks: readonly ContentBlock[], budget: number, note: string | null): readonly ContentBlock[] {
  const kept: ContentBlock[] = [];
  let left = budget;
  for (const block of blocks) {
    const size = blockSize(block);
    if (size <= left) {
      kept.push(block);
      left -= size;
      continue;
    }
    if (block.type === 'text' && left > CUT_MARK.length) {
      kept.push({ type: 'text', text: note === null ? cutWithMark(block.text, left) : cutText(block.text, left) });
    }
    break;
  }
  if (note !== null) kept.push({ type: 'text', text: note.trimStart() });
  return Object.freeze(kept);
}
