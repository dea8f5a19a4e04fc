import { ToolContext, type CallerLogLevel, type ElicitationRequest, type SamplingRequest, type ToolCaller } from '@milpa/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createConformanceRegistry } from './create-conformance-registry.js';

/** A caller that records what the fixtures send and answers elicitation and sampling. */
function recordingCaller() {
  const progress: [number, number | undefined][] = [];
  const logs: [CallerLogLevel, unknown][] = [];
  const asked: ElicitationRequest[] = [];
  const sampled: SamplingRequest[] = [];
  const caller: ToolCaller = {
    capabilities: { progress: true, logging: true, elicitation: true, sampling: true },
    reportProgress: async (value, total) => void progress.push([value, total]),
    log: async (level, data) => void logs.push([level, data]),
    elicit: async (request) => {
      asked.push(request);
      return { action: 'accept', content: { username: 'ada' } };
    },
    sample: async (request) => {
      sampled.push(request);
      return { status: 'ok', text: 'hi there' };
    },
  };
  return { caller, progress, logs, asked, sampled };
}

const context = () => ToolContext.mcp('req-1', 'conformance-suite', []);

describe('createConformanceRegistry', () => {
  const registry = createConformanceRegistry();

  it('registers every fixture tool the suite calls', () => {
    expect(
      registry
        .getToolDefinitions()
        .map((definition) => definition.name)
        .sort(),
    ).toEqual([
      'json_schema_2020_12_tool',
      'test_audio_content',
      'test_elicitation',
      'test_elicitation_sep1034_defaults',
      'test_elicitation_sep1330_enums',
      'test_embedded_resource',
      'test_error_handling',
      'test_image_content',
      'test_multiple_content_types',
      'test_reconnection',
      'test_sampling',
      'test_simple_text',
      'test_tool_with_logging',
      'test_tool_with_progress',
    ]);
  });

  it('returns the exact simple text', async () => {
    const result = await registry.call('test_simple_text', {}, context());
    expect(result.getContent()).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
  });

  it('returns a WAV file as audio', async () => {
    const [block] = (await registry.call('test_audio_content', {}, context())).getContent() ?? [];
    expect(block).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    const bytes = Buffer.from((block as { data: string }).data, 'base64');
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('ascii')).toBe('WAVE');
  });

  it('fails test_error_handling with the suite message', async () => {
    const result = await registry.call('test_error_handling', {}, context());
    expect(result.error).toBe('This tool intentionally returns an error for testing');
  });

  it('reports progress 0, 50 and 100 of 100', async () => {
    const recording = recordingCaller();
    await registry.call('test_tool_with_progress', {}, context(), { caller: recording.caller });
    expect(recording.progress).toEqual([
      [0, 100],
      [50, 100],
      [100, 100],
    ]);
  });

  it('logs three info messages', async () => {
    const recording = recordingCaller();
    await registry.call('test_tool_with_logging', {}, context(), { caller: recording.caller });
    expect(recording.logs).toEqual([
      ['info', 'Tool execution started'],
      ['info', 'Tool processing data'],
      ['info', 'Tool execution completed'],
    ]);
  });

  it('samples with the prompt and 100 tokens', async () => {
    const recording = recordingCaller();
    const result = await registry.call('test_sampling', { prompt: 'Say hi' }, context(), { caller: recording.caller });
    expect(recording.sampled).toEqual([{ messages: [{ role: 'user', content: 'Say hi' }], maxTokens: 100 }]);
    expect(result.getContent()).toEqual([{ type: 'text', text: 'LLM response: hi there' }]);
  });

  it('fails sampling and elicitation tools on a caller that cannot do them', async () => {
    expect((await registry.call('test_sampling', { prompt: 'x' }, context())).error).toBe('The client does not support sampling');
    expect((await registry.call('test_elicitation', { message: 'x' }, context())).error).toBe('The client does not support elicitation');
  });

  it('asks with the SEP-1034 defaults', async () => {
    const recording = recordingCaller();
    await registry.call('test_elicitation_sep1034_defaults', {}, context(), { caller: recording.caller });
    const properties = recording.asked[0]?.requestedSchema['properties'] as Record<string, { default: unknown }>;
    expect(Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, schema.default]))).toEqual({
      name: 'John Doe',
      age: 30,
      score: 95.5,
      status: 'active',
      verified: true,
    });
  });

  it('keeps the 2020-12 keywords of json_schema_2020_12_tool and validates with them', async () => {
    const schema = registry.getDefinition('json_schema_2020_12_tool')?.inputSchema;
    expect(schema).toMatchObject({ $schema: 'https://json-schema.org/draft/2020-12/schema', additionalProperties: false });
    const bad = await registry.call('json_schema_2020_12_tool', { name: 'x', extra: true }, context());
    expect(bad.getCode()).toBe('VALIDATION_ERROR');
    const good = await registry.call('json_schema_2020_12_tool', { name: 'x', address: { city: 'Oaxaca' } }, context());
    expect(good.success).toBe(true);
  });

  describe('test_reconnection', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('closes its stream first, then answers after a brief wait', async () => {
      vi.useFakeTimers();
      const steps: string[] = [];
      const caller = {
        ...recordingCaller().caller,
        // The key `closeMcpSseStream` looks for on an MCP caller.
        [Symbol.for('milpa.mcp.closeSseStream')]: () => {
          steps.push('closed');
          return true;
        },
      };
      const call = registry.call('test_reconnection', {}, context(), { caller }).then((result) => {
        steps.push('answered');
        return result;
      });
      await vi.advanceTimersByTimeAsync(99);
      expect(steps).toEqual(['closed']);
      await vi.advanceTimersByTimeAsync(1);
      expect((await call).getContent()).toEqual([{ type: 'text', text: 'Reconnection test completed successfully' }]);
      expect(steps).toEqual(['closed', 'answered']);
    });

    it('still answers when its caller cannot close a stream', async () => {
      vi.useFakeTimers();
      const call = registry.call('test_reconnection', {}, context(), { caller: recordingCaller().caller });
      await vi.advanceTimersByTimeAsync(100);
      expect((await call).success).toBe(true);
    });
  });
});
