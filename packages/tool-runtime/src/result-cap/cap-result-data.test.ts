import { describe, expect, it } from 'vitest';
import { capResultData } from './cap-result-data.js';

describe('capResultData', () => {
  it('leaves data within the cap alone', () => {
    expect(capResultData('x'.repeat(100), 100)).toBeNull();
    expect(capResultData({ rows: ['a', 'b'] }, 100)).toBeNull();
    expect(capResultData(null, 1)).toBeNull();
  });

  it('cuts a long string to the cap and ends it with the note', () => {
    const capped = capResultData('y'.repeat(150), 100);
    expect(capped?.originalChars).toBe(150);
    expect(capped?.data.startsWith('y'.repeat(100))).toBe(true);
    expect(capped?.data.slice(100)).toBe(
      '\n\n[Result truncated: it was 150 characters, over the limit of 100. Narrow the request, or page with offset to read the rest.]',
    );
  });

  it('cuts the JSON text of structured data that is over the cap', () => {
    const rows = Array.from({ length: 50 }, (_, index) => ({ id: index, title: `note number ${index}` }));
    const capped = capResultData({ rows }, 200);
    const json = JSON.stringify({ rows });
    expect(capped?.originalChars).toBe(json.length);
    expect(capped?.data.startsWith(json.slice(0, 200))).toBe(true);
  });

  it('never splits a surrogate pair at the cut', () => {
    const capped = capResultData(`${'a'.repeat(9)}😀tail`, 10);
    expect(capped?.data.startsWith(`${'a'.repeat(9)}\n`)).toBe(true);
  });

  it('handles a cyclic object without looping', () => {
    const cyclic: Record<string, unknown> = { text: 'z'.repeat(20) };
    cyclic['self'] = cyclic;
    expect(capResultData(cyclic, 1_000)).toBeNull();
  });
});
