import type { ContentBlock } from '@milpa/core';

/** Content blocks after the result cap, and whether anything was cut. */
export interface CappedContent {
  /** The blocks that fit, the last text block possibly cut short. */
  readonly blocks: readonly ContentBlock[];
  /** True when something was cut or left out. */
  readonly truncated: boolean;
}

/** How many characters a block takes against the cap. */
function sizeOf(block: ContentBlock): number {
  switch (block.type) {
    case 'text':
      return block.text.length;
    case 'image':
    case 'audio':
      return block.data.length;
    default:
      return JSON.stringify(block).length;
  }
}

/**
 * Cuts upstream content to at most `maxChars` characters (text, plus base64 data and embedded
 * resources at their serialized size): blocks are kept in order while they fit, a text block that
 * does not fit is cut, and a note saying the result was cut is appended. `maxChars` of 0 keeps
 * everything.
 *
 * @example
 * capContentBlocks([{ type: 'text', text: 'x'.repeat(50_000) }], 10_000).truncated; // true
 */
export function capContentBlocks(blocks: readonly ContentBlock[], maxChars: number): CappedContent {
  if (maxChars <= 0) return { blocks, truncated: false };
  const total = blocks.reduce((sum, block) => sum + sizeOf(block), 0);
  if (total <= maxChars) return { blocks, truncated: false };
  const kept: ContentBlock[] = [];
  let left = maxChars;
  for (const block of blocks) {
    const size = sizeOf(block);
    if (size <= left) {
      kept.push(block);
      left -= size;
      continue;
    }
    if (block.type === 'text' && left > 0) kept.push({ type: 'text', text: block.text.slice(0, left) });
    break;
  }
  kept.push({ type: 'text', text: `\n[result cut to ${maxChars} of ${total} characters by the gateway's result cap]` });
  return { blocks: kept, truncated: true };
}
