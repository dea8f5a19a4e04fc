import { describe, expect, it } from 'vitest';
import { LogLevelThreshold } from './log-level-threshold.js';

describe('LogLevelThreshold', () => {
  it('allows every level until a level is set', () => {
    const threshold = new LogLevelThreshold();
    expect(threshold.allows('debug')).toBe(true);
  });

  it('allows the set level and more severe ones only', () => {
    const threshold = new LogLevelThreshold();
    threshold.set('warning');
    expect(['debug', 'info', 'notice', 'warning', 'error', 'emergency'].map((level) => threshold.allows(level as never))).toEqual([
      false,
      false,
      false,
      true,
      true,
      true,
    ]);
  });

  describe('isLevel', () => {
    it('knows the eight syslog levels and nothing else', () => {
      expect(LogLevelThreshold.isLevel('critical')).toBe(true);
      expect(LogLevelThreshold.isLevel('warn')).toBe(false);
      expect(LogLevelThreshold.isLevel('toString')).toBe(false);
    });
  });
});
