import { describe, expect, it } from 'vitest';
import { capContentBlocks } from './cap-content-blocks.js';

describe('capContentBlocks', () => {
  it('keeps blocks that fit, and everything when the cap is 0', () => {
    const blocks = [{ type: 'text' as const, text: 'abc' }];
    expect(capContentBlocks(blocks, 3)).toEqual({ blocks, truncated: false });
    expect(capContentBlocks([{ type: 'text', text: 'x'.repeat(100) }], 0).truncated).toBe(false);
  });

  it('cuts the text block that does not fit and says so', () => {
    const { blocks, truncated } = capContentBlocks(
      [
        { type: 'text', text: 'aaaa' },
        { type: 'text', text: 'bbbbbbbb' },
        { type: 'text', text: 'never' },
      ],
      6,
    );
    expect(truncated).toBe(true);
    expect(blocks).toEqual([
      { type: 'text', text: 'aaaa' },
      { type: 'text', text: 'bb' },
      { type: 'text', text: "\n[result cut to 6 of 17 characters by the gateway's result cap]" },
    ]);
  });

  it('leaves out binary blocks that do not fit instead of cutting them', () => {
    const { blocks } = capContentBlocks([{ type: 'image', data: 'A'.repeat(50), mimeType: 'image/png' }], 10);
    expect(blocks.map((block) => block.type)).toEqual(['text']);
  });
});
