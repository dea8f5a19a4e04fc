import { ToolResult, type ToolResultMeta } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { failedOutcome, refusedOutcome, confirmationOutcome } from '../pipeline/call-outcomes.js';
import { RUNTIME_ALLOWANCE, RUNTIME_META_KEYS, capToolResult, shareBudget } from './cap-tool-result.js';

/** Standard meta as the pipeline writes it. */
const STANDARD: ToolResultMeta = Object.freeze({ tool: 'dump', took_ms: 3, request_id: 'req-1', channel: 'cli', principal: 'ana' });

/** The serialized size of `result`'s skeleton: the fixed fields and the runtime's own meta entries, without content. */
function skeleton(result: ToolResult): number {
  const meta = Object.fromEntries(Object.entries(result.meta).filter(([key]) => RUNTIME_META_KEYS.has(key)));
  return JSON.stringify({ success: result.success, data: null, message: null, error: null, meta }).length;
}

/** Asserts the serialized result is within the cap plus its fixed skeleton (and a few characters of quoting). */
function expectWithin(result: ToolResult, maxChars: number): void {
  // Sizes count characters of text: an escape JSON adds (a quote inside cut JSON text) counts as the one character it stands for.
  const text = JSON.stringify(result).replace(/\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g, 'x');
  expect(text.length).toBeLessThanOrEqual(maxChars + skeleton(result) + 16);
  expect(skeleton(result)).toBeLessThan(RUNTIME_ALLOWANCE + 200);
}

describe('capToolResult', () => {
  it('leaves a result within the cap alone', () => {
    expect(capToolResult(ToolResult.success('x'.repeat(100), 'ok', STANDARD), 200)).toBeNull();
    expect(capToolResult(ToolResult.success({ rows: ['a', 'b'] }, null, STANDARD), 200)).toBeNull();
    expect(capToolResult(ToolResult.success(null, null, STANDARD), 1)).toBeNull();
    expect(capToolResult(ToolResult.failure('NOT_FOUND', 'No note 7', null, STANDARD), 200)).toBeNull();
  });

  it('leaves a result whose parts add up to exactly the cap alone', () => {
    const result = new ToolResult(true, 'd'.repeat(500), 'm'.repeat(300), null, { ...STANDARD, note: 'n'.repeat(186) });
    expect(capToolResult(result, 1_000)).toBeNull();
  });

  it('cuts long string data, note included in the cap, with the truncation meta', () => {
    const capped = capToolResult(ToolResult.success('y'.repeat(1_500), null, STANDARD), 1_000);
    const data = capped?.data as string;
    expect(data.length).toBeLessThanOrEqual(1_000);
    expect(data.startsWith('y'.repeat(800))).toBe(true);
    // One pattern, written in two pieces to stay within the line length.
    const note =
      /yy\n\n\[Result truncated: it was 1500 characters, over the limit of 1000\. /.source +
      /Narrow the request, or page with offset to read the rest\.\]$/.source;
    expect(data).toMatch(new RegExp(note));
    expect(capped?.meta).toMatchObject({ ...STANDARD, truncated: true, original_chars: 1_500, max_chars: 1_000 });
    expect(capped?.meta['original_sizes']).toEqual({ data: 1_500, message: 0, error: 0, meta: 0 });
  });

  it('is stable: a cut result passes the cap again unchanged', () => {
    const capped = capToolResult(
      new ToolResult(true, 'y'.repeat(5_000), 'm'.repeat(3_000), null, { ...STANDARD, x: 'z'.repeat(4_000) }),
      1_000,
    );
    expect(capped).not.toBeNull();
    expect(capToolResult(capped as ToolResult, 1_000)).toBeNull();
  });

  it('cuts the JSON text of structured data that is over the cap', () => {
    const rows = Array.from({ length: 100 }, (_, index) => ({ id: index, title: `note number ${index}` }));
    const capped = capToolResult(ToolResult.success({ rows }, null, STANDARD), 1_000);
    const json = JSON.stringify({ rows });
    expect(capped?.meta['original_chars']).toBe(json.length);
    expect((capped?.data as string).startsWith(json.slice(0, 800))).toBe(true);
  });

  it('never splits a surrogate pair at the cut, in data, message or meta', () => {
    const emoji = '😀'.repeat(100_000);
    const capped = capToolResult(new ToolResult(true, emoji, emoji, null, { ...STANDARD, text: emoji }), 999) as ToolResult;
    for (const text of [capped.data as string, capped.message as string, capped.meta['text'] as string]) {
      expect(text.length).toBeGreaterThan(10);
      expect(() => encodeURIComponent(text)).not.toThrow();
      expect(text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
    expectWithin(capped, 999);
  });

  it('handles a cyclic object without looping, leaving a result that serializes', () => {
    const cyclic: Record<string, unknown> = { text: 'z'.repeat(20) };
    cyclic['self'] = cyclic;
    const small = capToolResult(new ToolResult(true, cyclic, null, null, { ...STANDARD, cyclic }), 1_000) as ToolResult;
    expect(() => JSON.stringify(small)).not.toThrow();
    expectWithin(small, 1_000);
    const wide: Record<string, unknown> = { text: 'z'.repeat(2_000) };
    wide['self'] = wide;
    const capped = capToolResult(new ToolResult(true, wide, null, null, { ...STANDARD, wide }), 1_000) as ToolResult;
    expect(() => JSON.stringify(capped)).not.toThrow();
    expectWithin(capped, 1_000);
  });

  it('cuts a 200 KB message, keeping short data whole', () => {
    const capped = capToolResult(ToolResult.success({ id: 7 }, 'm'.repeat(200_000), STANDARD), 400) as ToolResult;
    expect(capped.data).toEqual({ id: 7 });
    expect(capped.message).toMatch(/^m+\n\n\[Result truncated: it was 200008 characters, over the limit of 400\./);
    expect(capped.meta['original_sizes']).toEqual({ data: 8, message: 200_000, error: 0, meta: 0 });
    expectWithin(capped, 400);
  });

  it('cuts a 200 KB failure error, with the note at its end and the refusal reason cut alike', () => {
    const failure = new ToolResult(
      false,
      null,
      null,
      'e'.repeat(200_000),
      { ...STANDARD, code: 'INTERNAL_ERROR', type: 'error' },
      failedOutcome('failed', 'e'.repeat(200_000)),
    );
    const capped = capToolResult(failure, 400) as ToolResult;
    expect(capped.error).toMatch(/^e+\n\n\[Result truncated: it was 200000 characters/);
    expect(capped.meta).toMatchObject({ code: 'INTERNAL_ERROR', type: 'error', truncated: true });
    expect(capped.outcome).toMatchObject({ kind: 'failed', code: 'INTERNAL_ERROR', reason: capped.error });
    expectWithin(capped, 400);
  });

  it('cuts a huge refusal reason and keeps the refusal outcome', () => {
    const reason = 'r'.repeat(300_000);
    const refusal = new ToolResult(
      false,
      null,
      null,
      reason,
      { ...STANDARD, code: 'FORBIDDEN', type: 'error' },
      refusedOutcome('refused', 'FORBIDDEN', reason),
    );
    const capped = capToolResult(refusal, 400) as ToolResult;
    expect(capped.getRefusal()).toMatchObject({ name: 'refused', code: 'FORBIDDEN' });
    expect(capped.getRefusal()?.reason).toBe(capped.error);
    expectWithin(capped, 400);
  });

  it('cuts a 200 KB meta string, the runtime entries staying whole', () => {
    const meta = { ...STANDARD, code: 'NOT_FOUND', type: 'error', approval_id: 'a'.repeat(32), hint: 'h'.repeat(200_000) };
    const capped = capToolResult(new ToolResult(false, null, null, 'missing', meta), 400) as ToolResult;
    expect(capped.meta).toMatchObject({ ...STANDARD, code: 'NOT_FOUND', type: 'error', approval_id: 'a'.repeat(32), truncated: true });
    expect(capped.meta['hint']).toMatch(/^h+ \[…\]$/);
    expect(capped.error).toMatch(/^missing\n\n\[Result truncated/);
    expectWithin(capped, 400);
  });

  it('keeps the first entries of a meta object with 100,000 keys', () => {
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, index) => [`key_${index}`, index]));
    const capped = capToolResult(new ToolResult(true, 'ok', null, null, { ...STANDARD, ...wide }), 400) as ToolResult;
    expect(capped.meta['key_0']).toBe(0);
    expect(capped.meta).not.toHaveProperty('key_99999');
    expect(capped.data).toBe('ok');
    expectWithin(capped, 400);
  });

  it('cuts a deeply nested meta value and data', () => {
    let deep: Record<string, unknown> = { leaf: 'x' };
    for (let level = 0; level < 100_000; level++) deep = { a: deep };
    const capped = capToolResult(new ToolResult(true, deep, null, null, { ...STANDARD, deep }), 400) as ToolResult;
    expect(() => JSON.stringify(capped)).not.toThrow();
    expect(typeof capped.data).toBe('string');
    expectWithin(capped, 400);
  });

  it('counts a runtime key a tool filled with a huge value as content', () => {
    const capped = capToolResult(ToolResult.success('ok', null, { ...STANDARD, code: 'c'.repeat(100_000) }), 400) as ToolResult;
    expect((capped.meta['code'] as string).length).toBeLessThan(400);
    expectWithin(capped, 400);
  });

  it('cuts message, error, data and meta of one result within the cap together', () => {
    const big = 'b'.repeat(50_000);
    const capped = capToolResult(new ToolResult(false, big, big, big, { ...STANDARD, big, list: [big, big] }), 400) as ToolResult;
    expect(capped.message).toMatch(/ \[…\]$/);
    expect(capped.data).toMatch(/ \[…\]$/);
    expect(capped.error).toMatch(/\[Result truncated: it was \d+ characters/);
    expectWithin(capped, 400);
  });

  it('cuts content blocks block by block, leaving out a block that does not fit whole', () => {
    const blocks = [
      { type: 'text' as const, text: 'intro' },
      { type: 'image' as const, data: 'A'.repeat(5_000), mimeType: 'image/png' },
      { type: 'text' as const, text: 'after' },
    ];
    const capped = capToolResult(ToolResult.content(blocks, null, STANDARD), 1_000) as ToolResult;
    const content = capped.getContent();
    expect(content?.[0]).toEqual({ type: 'text', text: 'intro' });
    expect(content?.some((block) => block.type === 'image')).toBe(false);
    expect(content?.at(-1)).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[Result truncated/) });
  });

  it('keeps a confirmation token whole when the summary is huge', () => {
    const summary = 's'.repeat(100_000);
    const data = {
      requires_confirmation: true,
      confirm_token: 't'.repeat(43),
      action_summary: summary,
      expires_at: '2026-12-07T19:00:00Z',
    };
    const result = new ToolResult(
      true,
      data,
      summary,
      null,
      { ...STANDARD, type: 'confirmation', requires_confirmation: true },
      confirmationOutcome('t'.repeat(43), summary, '2026-12-07T19:00:00Z'),
    );
    const capped = capToolResult(result, 400) as ToolResult;
    expect(capped.getConfirmToken()).toBe('t'.repeat(43));
    expect(capped.requiresConfirmation()).toBe(true);
    expect(capped.message).toMatch(/\[Result truncated: it was \d+ characters, over the limit of 400\./);
    expectWithin(capped, 400);
  });

  it('writes a message or an error that is not text as text, cut', () => {
    const odd = new ToolResult(true, null, { many: 'o'.repeat(10_000) } as unknown as string, null, STANDARD);
    const capped = capToolResult(odd, 400) as ToolResult;
    expect(typeof capped.message).toBe('string');
    expectWithin(capped, 400);
  });

  it('calls toJSON as JSON would, so a small object cannot hide a huge text', () => {
    const sneaky = { toJSON: () => 'j'.repeat(100_000) };
    const capped = capToolResult(ToolResult.success('ok', null, { ...STANDARD, sneaky }), 400) as ToolResult;
    expectWithin(capped, 400);
  });
});

describe('capToolResult input', () => {
  it('is off with a cap of 0', () => {
    expect(capToolResult(ToolResult.success('x'.repeat(50_000)), 0)).toBeNull();
  });

  it('refuses a result that is not a ToolResult, or a cap that is not a whole number of 0 or more', () => {
    expect(() => capToolResult({ success: true } as unknown as ToolResult, 10)).toThrow(/must be a ToolResult/);
    for (const cap of [-1, 2.5, Number.NaN, '10' as unknown as number]) {
      expect(() => capToolResult(ToolResult.success('x'), cap)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    }
  });
});

describe('shareBudget', () => {
  it('keeps parts that fit an equal share whole and splits the rest evenly', () => {
    expect(shareBudget([10, 1_000, 0, 1_000], 400)).toEqual([10, 195, 0, 195]);
    expect(shareBudget([10, 20, 30, 40], 400)).toEqual([10, 20, 30, 40]);
    expect(shareBudget([1_000, 1_000], -5)).toEqual([0, 0]);
  });
});
