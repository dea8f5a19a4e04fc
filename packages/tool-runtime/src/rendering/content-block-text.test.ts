import { describe, expect, it } from 'vitest';
import { describeContentBlock } from './content-block-text.js';

describe('describeContentBlock', () => {
  it('shows the decoded size in B, KB or MB when the block is binary', () => {
    expect(describeContentBlock({ type: 'image', data: 'QUJD', mimeType: 'image/gif' })).toEqual({
      text: '[image: image/gif, 3 B]',
      placeholder: true,
    });
    expect(describeContentBlock({ type: 'image', data: 'QQ==', mimeType: 'image/gif' }).text).toBe('[image: image/gif, 1 B]');
    expect(describeContentBlock({ type: 'audio', data: 'A'.repeat(2048), mimeType: 'audio/ogg' }).text).toBe('[audio: audio/ogg, 1.5 KB]');
    expect(describeContentBlock({ type: 'image', data: 'A'.repeat(4 * 1024 * 1024), mimeType: 'image/png' }).text).toBe(
      '[image: image/png, 3.0 MB]',
    );
  });

  it('returns the text of a textual resource and a placeholder for a blob', () => {
    expect(describeContentBlock({ type: 'resource', resource: { uri: 'mem://a', text: 'body' } })).toEqual({
      text: 'body',
      placeholder: false,
    });
    expect(describeContentBlock({ type: 'resource', resource: { uri: 'mem://b', blob: 'AAAA' } })).toEqual({
      text: '[resource: mem://b]',
      placeholder: true,
    });
  });

  it('shows an unknown block as JSON rather than dropping it', () => {
    expect(describeContentBlock({ type: 'video', url: 'v' })).toEqual({ text: '[content: {"type":"video","url":"v"}]', placeholder: true });
  });
});
