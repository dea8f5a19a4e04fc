import { ToolContext, defineTool, type Logger } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { RecordingLogger } from '../../../test/support/recording-logger.js';
import { ToolRegistry } from '../../registry/tool-registry.js';

function debugLines(logger: RecordingLogger): string[] {
  return logger.messages('debug').filter((message) => /Authoriz|Auth result|scopes/.test(message));
}

/** A RecordingLogger that, like pino, answers isLevelEnabled for the levels it knows. */
class LevelAwareLogger extends RecordingLogger implements Logger {
  isLevelEnabled(level: string): boolean {
    return ['debug', 'info', 'warn', 'error'].includes(level);
  }
}

/** A RecordingLogger that says debug is off. */
class QuietLogger extends RecordingLogger implements Logger {
  isLevelEnabled(level: string): boolean {
    return level !== 'debug';
  }
}

describe('authorizeStage', () => {
  describe('run', () => {
    it('writes the authorizing, scope and allowed debug lines when debug is on', async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger });
      registry.register(defineTool({ name: 'read_notes', description: 'd', scopes: ['notes:read', 'notes:admin'], handler: () => 'ok' }));
      await registry.call('read_notes', {}, ToolContext.web('user:1', ['notes:read', 'tasks:write']));
      expect(debugLines(logger)).toEqual([
        '[ToolRegistry] Authorizing read_notes for principal=user:1, channel=web',
        '[ToolRegistry] Tool scopes required: notes:read, notes:admin',
        '[ToolRegistry] Context scopes: notes:read, tasks:write',
        '[ToolRegistry] Auth result: ALLOWED',
      ]);
      const contexts = logger.lines.filter((line) => /Authoriz|Auth result|scopes/.test(line.message)).map((line) => line.context);
      expect(contexts).toEqual(Array.from({ length: 4 }, () => ({ tool: 'read_notes' })));
    });

    it("writes '(none)' for empty scope lists and 'anonymous' for a missing principal, then the denial", async () => {
      const logger = new RecordingLogger();
      const registry = new ToolRegistry({ logger });
      registry.register(defineTool({ name: 'ping', description: 'd', handler: () => 'pong' }));
      const result = await registry.call('ping', {}, ToolContext.web(null));
      expect(result.meta['code']).toBe('FORBIDDEN');
      expect(debugLines(logger)).toEqual([
        '[ToolRegistry] Authorizing ping for principal=anonymous, channel=web',
        '[ToolRegistry] Tool scopes required: (none)',
        '[ToolRegistry] Context scopes: (none)',
        `[ToolRegistry] Auth result: DENIED: ${result.error as string}`,
      ]);
      expect(logger.lines.filter((line) => line.message.startsWith('[ToolRegistry] Auth result')).map((line) => line.context)).toEqual([
        { tool: 'ping' },
      ]);
    });

    it('writes the debug lines through a logger that answers isLevelEnabled', async () => {
      const logger = new LevelAwareLogger();
      const registry = new ToolRegistry({ logger });
      registry.register(defineTool({ name: 'ping', description: 'd', handler: () => 'pong' }));
      await registry.call('ping', {}, ToolContext.web('user:1'));
      expect(debugLines(logger)).toEqual([
        '[ToolRegistry] Authorizing ping for principal=user:1, channel=web',
        '[ToolRegistry] Tool scopes required: (none)',
        '[ToolRegistry] Context scopes: (none)',
        '[ToolRegistry] Auth result: ALLOWED',
      ]);
    });

    it('refuses the call fail-closed, naming the policy gate, when authorizing throws', async () => {
      class BrokenContext extends ToolContext {
        override hasAnyScope(): boolean {
          throw new Error('scope store down');
        }
      }
      const registry = new ToolRegistry();
      let ran = false;
      registry.register(defineTool({ name: 'guarded', description: 'd', scopes: ['notes:read'], handler: () => (ran = true) }));
      const result = await registry.call('guarded', {}, new BrokenContext({ channel: 'web', principal: 'user:1', scopes: ['notes:read'] }));
      expect(result.meta['code']).toBe('INTERNAL_ERROR');
      expect(result.error).toMatch(/^Tool call refused: the policy gate failed \(fail-closed\)/);
      expect(ran).toBe(false);
    });

    it('writes no authorization debug line when the logger has debug off', async () => {
      const logger = new QuietLogger();
      const registry = new ToolRegistry({ logger });
      registry.register(defineTool({ name: 'ping', description: 'd', handler: () => 'pong' }));
      await registry.call('ping', {}, ToolContext.web('user:1'));
      await registry.call('ping', {}, ToolContext.web(null));
      expect(logger.messages('debug')).toEqual([]);
    });
  });
});
