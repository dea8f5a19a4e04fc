import { describe, expect, it } from 'vitest';
import { MemoryLogger, type LogEntry } from './memory-logger.js';

describe('MemoryLogger', () => {
  describe('isLevelEnabled', () => {
    it('reports debug as disabled when the level is info (the default)', () => {
      const logger = new MemoryLogger();
      expect(logger.isLevelEnabled('debug')).toBe(false);
      expect(logger.isLevelEnabled('info')).toBe(true);
      expect(logger.isLevelEnabled('error')).toBe(true);
    });

    it('reports debug as enabled when the level is debug', () => {
      expect(new MemoryLogger({ level: 'debug' }).isLevelEnabled('debug')).toBe(true);
    });
  });

  describe('entries', () => {
    it('keeps lines at or above the level, in order, with their context', () => {
      const logger = new MemoryLogger({ level: 'warn' });
      logger.info({}, 'dropped');
      logger.warn({ audit: { outcome: 'auth_denied' } }, 'kept warning');
      logger.error({}, 'kept error');
      expect(logger.entries()).toEqual([
        { level: 'warn', message: 'kept warning', context: { audit: { outcome: 'auth_denied' } } },
        { level: 'error', message: 'kept error', context: {} },
      ]);
    });

    it('returns a copy that later lines do not change', () => {
      const logger = new MemoryLogger();
      const before = logger.entries();
      logger.info({}, 'later');
      expect(before).toHaveLength(0);
    });
  });

  describe('auditLines', () => {
    it('returns only the [ToolAudit] messages', () => {
      const logger = new MemoryLogger();
      logger.info({}, '[ToolAudit] r1 | cli | list_notes | cli | 0ms | OK | args={}');
      logger.warn({}, '[EventDispatcher] Handler error for tool.executed: boom');
      expect(logger.auditLines()).toEqual(['[ToolAudit] r1 | cli | list_notes | cli | 0ms | OK | args={}']);
    });
  });

  describe('onEntry', () => {
    it('receives each kept line as it arrives, and not the dropped ones', () => {
      const seen: LogEntry[] = [];
      const logger = new MemoryLogger({ onEntry: (entry) => seen.push(entry) });
      logger.debug({}, 'dropped');
      logger.info({ a: 1 }, 'kept');
      expect(seen).toEqual([{ level: 'info', message: 'kept', context: { a: 1 } }]);
    });
  });
});
