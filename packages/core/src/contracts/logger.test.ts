import { pino } from 'pino';
import { describe, expect, expectTypeOf, it, vi } from 'vitest';
import { silentLogger, type Logger } from './logger.js';

describe('Logger', () => {
  it('is satisfied by a pino logger, which writes the context fields and the message', () => {
    const lines: string[] = [];
    const logger: Logger = pino({ level: 'debug', base: undefined, timestamp: false }, { write: (line: string) => lines.push(line) });

    logger.warn({ tool: 'delete_note', code: 'FORBIDDEN' }, '[ToolAudit] delete_note denied');

    expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual([
      { level: 40, tool: 'delete_note', code: 'FORBIDDEN', msg: '[ToolAudit] delete_note denied' },
    ]);
    expect(logger.isLevelEnabled?.('debug')).toBe(true);
    expectTypeOf(pino()).toExtend<Logger>();
  });

  it('is satisfied by console, which receives the context and the message', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const logger: Logger = console;

    logger.warn({ tool: 'delete_note' }, 'denied');

    expect(warn).toHaveBeenCalledWith({ tool: 'delete_note' }, 'denied');
    expectTypeOf(console).toExtend<Logger>();
  });
});

describe('silentLogger', () => {
  it('discards every line and reports every level disabled', () => {
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      expect(silentLogger[level]({ secret: 'x' }, 'message')).toBeUndefined();
      expect(silentLogger.isLevelEnabled?.(level)).toBe(false);
    }
  });

  it('cannot be changed by one host for all others', () => {
    expect(Object.isFrozen(silentLogger)).toBe(true);
  });
});
