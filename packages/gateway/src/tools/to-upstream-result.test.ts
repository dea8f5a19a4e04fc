import { ToolErrorCode } from '@milpa/core';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { UpstreamUnavailableError } from '../upstream/upstream-unavailable-error.js';
import { toUpstreamFailure } from './to-upstream-failure.js';
import { toUpstreamResult } from './to-upstream-result.js';

describe('toUpstreamResult', () => {
  it('passes content blocks through and names the upstream', () => {
    const result = toUpstreamResult({ content: [{ type: 'text', text: 'hi' }] }, 'files', 1_000);
    expect(result.success).toBe(true);
    expect(result.getContent()).toEqual([{ type: 'text', text: 'hi' }]);
    expect(result.meta['upstream']).toBe('files');
  });

  it('turns a result with only structured content into its data', () => {
    const result = toUpstreamResult({ content: [], structuredContent: { n: 1 } }, 'files', 1_000);
    expect(result.data).toEqual({ n: 1 });
  });

  it('keeps a block of an unknown kind as its JSON text', () => {
    const result = toUpstreamResult({ content: [{ type: 'novel', value: 1 } as never] }, 'files', 1_000);
    expect(result.getContent()).toEqual([{ type: 'text', text: '{"type":"novel","value":1}' }]);
  });

  it('maps isError to a failure without a code, carrying the text and tool_error', () => {
    const result = toUpstreamResult({ content: [{ type: 'text', text: 'disk full' }], isError: true }, 'files', 1_000);
    expect(result.success).toBe(false);
    expect(result.error).toBe('disk full');
    expect(result.getCode()).toBeNull();
    expect(result.meta['upstream_error']).toBe('tool_error');
  });

  it('marks a capped result truncated', () => {
    expect(toUpstreamResult({ content: [{ type: 'text', text: 'x'.repeat(20) }] }, 'files', 8).meta['truncated']).toBe(true);
  });

  it('caps content blocks and the structured content beside them together', () => {
    const big = 'x'.repeat(200_000);
    const result = toUpstreamResult({ content: [{ type: 'text', text: big }], structuredContent: { big } }, 'files', 400);
    expect(result.meta).toMatchObject({ upstream: 'files', truncated: true, max_chars: 400 });
    expect(result.getContent()?.at(-1)).toMatchObject({ type: 'text', text: expect.stringMatching(/^\[Result truncated/) });
    expect(JSON.stringify(result).length).toBeLessThan(400 + 300);
  });

  it('caps a result with only structured content', () => {
    const result = toUpstreamResult({ content: [], structuredContent: { rows: 'r'.repeat(200_000) } }, 'files', 400);
    expect(result.meta['truncated']).toBe(true);
    expect(JSON.stringify(result).length).toBeLessThan(400 + 300);
  });

  it("caps an upstream's error text, the note at its end", () => {
    const result = toUpstreamResult({ content: [{ type: 'text', text: 'e'.repeat(200_000) }], isError: true }, 'files', 400);
    expect(result.error).toMatch(/^e+\n\n\[Result truncated: it was 200\d{3} characters, over the limit of 400\./);
    expect(result.meta).toMatchObject({ upstream_error: 'tool_error', truncated: true });
  });

  it('keeps everything with a cap of 0', () => {
    const result = toUpstreamResult({ content: [], structuredContent: { rows: 'r'.repeat(50_000) } }, 'files', 0);
    expect(result.meta).not.toHaveProperty('truncated');
  });
});

describe('toUpstreamFailure', () => {
  it('maps an unavailable upstream to UPSTREAM_UNAVAILABLE with retry_after_seconds', () => {
    const result = toUpstreamFailure(new UpstreamUnavailableError('files', 2_500), 'files', 'files_read', undefined);
    expect(result.getCode()).toBe(ToolErrorCode.UPSTREAM_UNAVAILABLE);
    expect(result.meta).toMatchObject({ upstream: 'files', upstream_error: 'unavailable', retry_after_seconds: 3 });
    expect(result.error).toContain("'files_read' was not called");
  });

  it('maps a time-out to TIMEOUT and an abort to cancelled', () => {
    expect(toUpstreamFailure(new McpError(ErrorCode.RequestTimeout, 'late'), 'f', 't', undefined).meta).toMatchObject({
      code: 'TIMEOUT',
      upstream_error: 'timeout',
    });
    const aborted = AbortSignal.abort();
    expect(toUpstreamFailure(new Error('AbortError'), 'f', 't', aborted).meta).toMatchObject({
      code: 'TIMEOUT',
      upstream_error: 'cancelled',
    });
  });

  it("maps the upstream's protocol error and a lost connection apart", () => {
    expect(toUpstreamFailure(new McpError(ErrorCode.InvalidParams, 'bad'), 'f', 't', undefined).meta).toMatchObject({
      upstream_error: 'protocol_error',
      upstream_code: ErrorCode.InvalidParams,
    });
    expect(toUpstreamFailure(new McpError(ErrorCode.ConnectionClosed, 'closed'), 'f', 't', undefined, 1_200).meta).toMatchObject({
      upstream_error: 'disconnected',
      retry_after_seconds: 2,
    });
    expect(toUpstreamFailure(new TypeError('fetch failed'), 'f', 't', undefined).meta['upstream_error']).toBe('disconnected');
  });
});
