import { ToolContext, Type, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { ToolRegistry } from './tool-registry.js';

/** Everything a call wrote to the log, as one text per line (message and context). */
function lineSizes(logger: RecordingLogger): number[] {
  return logger.lines.map((line) => line.message.length + JSON.stringify(line.context).length);
}

describe('ToolRegistry: what a caller sends is quoted at a bounded length', () => {
  const huge = 'k'.repeat(4_000_000);

  it('answers and logs an unknown tool name of 4 MB in lines of a few hundred characters, noting its length', async () => {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger });
    const result = await registry.call(huge, {});
    expect(result.error).toContain('(4000000 characters)');
    expect((result.error ?? '').length).toBeLessThan(400);
    expect(Math.max(...lineSizes(logger))).toBeLessThan(2000);
  });

  it('answers and logs an unknown argument key and an oversized value in bounded lines, the audit record included', async () => {
    const logger = new RecordingLogger();
    const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger, maxResultTokens: 0 });
    registry.register(
      defineTool({
        name: 'strict',
        description: 'd',
        input: Type.Object({ n: Type.Integer({ maximum: 5 }) }, { additionalProperties: false }),
        handler: () => 'ran',
      }),
    );
    const unknownKey = await registry.call('strict', { n: 1, [huge]: 1 });
    expect(unknownKey.success).toBe(false);
    expect(unknownKey.error).toContain('(4000000 characters)');
    expect((unknownKey.error ?? '').length).toBeLessThan(1000);
    const badValue = await registry.call('strict', { n: huge });
    expect(badValue.success).toBe(false);
    expect((badValue.error ?? '').length).toBeLessThan(1000);
    // The audit line and record quote the arguments too, with the key and the value cut.
    expect(Math.max(...lineSizes(logger))).toBeLessThan(5000);
    expect(JSON.stringify(logger.lines)).toContain('(4000000 characters)');
  });
});
