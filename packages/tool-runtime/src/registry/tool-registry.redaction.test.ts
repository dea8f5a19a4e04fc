import { ToolContext, Type, defineTool } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../test/support/recording-logger.js';
import { REDACTED } from '../audit/redactor.js';
import { ToolRegistry } from './tool-registry.js';

const R = REDACTED;
const ACME = /ACME-[0-9A-F]{8}/;

describe('ToolRegistry', () => {
  describe('redaction options', () => {
    it('is reached through the registry option sensitivePatterns, and a bad pattern fails at construction', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), logger, sensitivePatterns: [ACME] });
      registry.register(
        defineTool({ name: 'echo', description: 'd', input: Type.Object({ note: Type.String() }), handler: ({ note }) => note }),
      );
      await registry.call('echo', { note: 'see ACME-0123ABCD' });
      expect(logger.dump()).not.toContain('ACME-0123ABCD');
      expect(logger.dump()).toContain(`see ${R}`);
      expect(() => new ToolRegistry({ sensitivePatterns: ['ACME' as never] })).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
      );
    });
  });
});
