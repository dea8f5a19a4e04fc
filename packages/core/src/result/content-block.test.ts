import { describe, expect, it } from 'vitest';
import { isContentBlock } from './content-block.js';

describe('isContentBlock', () => {
  it('accepts every block kind when its required fields are present', () => {
    expect(isContentBlock({ type: 'text', text: 'hello' })).toBe(true);
    expect(isContentBlock({ type: 'image', data: 'aGk=', mimeType: 'image/png' })).toBe(true);
    expect(isContentBlock({ type: 'audio', data: 'aGk=', mimeType: 'audio/wav' })).toBe(true);
    expect(isContentBlock({ type: 'resource', resource: { uri: 'file:///a.txt', text: 'a' } })).toBe(true);
    expect(isContentBlock({ type: 'resource_link', uri: 'file:///a.txt', name: 'a' })).toBe(true);
  });

  it('rejects a block when a required field is missing or mistyped', () => {
    expect(isContentBlock({ type: 'text' })).toBe(false);
    expect(isContentBlock({ type: 'text', text: 42 })).toBe(false);
    expect(isContentBlock({ type: 'image', data: 'aGk=' })).toBe(false);
    expect(isContentBlock({ type: 'audio', mimeType: 'audio/wav' })).toBe(false);
    expect(isContentBlock({ type: 'resource', resource: null })).toBe(false);
    expect(isContentBlock({ type: 'resource', resource: { text: 'no uri' } })).toBe(false);
    expect(isContentBlock({ type: 'resource_link', uri: 'file:///a.txt' })).toBe(false);
  });

  it('rejects unknown kinds and non-objects', () => {
    expect(isContentBlock({ type: 'video', data: 'x', mimeType: 'video/mp4' })).toBe(false);
    expect(isContentBlock('text')).toBe(false);
    expect(isContentBlock(null)).toBe(false);
    expect(isContentBlock([{ type: 'text', text: 'a' }])).toBe(false);
  });
});
