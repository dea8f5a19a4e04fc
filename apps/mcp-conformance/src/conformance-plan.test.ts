import { describe, expect, it } from 'vitest';
import { EXPECTED_FAILURES, REQUIRED_SCENARIOS } from './conformance-plan.js';

describe('conformance plan', () => {
  it('never lets a required scenario be an expected failure', () => {
    expect(REQUIRED_SCENARIOS.filter((scenario) => Object.hasOwn(EXPECTED_FAILURES, scenario))).toEqual([]);
  });

  it('gives every expected failure a reason', () => {
    expect(Object.entries(EXPECTED_FAILURES).filter(([, reason]) => reason.trim().length < 20)).toEqual([]);
  });

  it('requires every tools-call scenario of the suite', () => {
    expect(REQUIRED_SCENARIOS.filter((scenario) => scenario.startsWith('tools-call-'))).toHaveLength(10);
  });

  it('requires SSE polling (resumable streams), no longer an expected failure', () => {
    expect(REQUIRED_SCENARIOS).toContain('server-sse-polling');
    expect(Object.keys(EXPECTED_FAILURES)).not.toContain('server-sse-polling');
  });

  it('expects only the scenarios of capabilities a tool registry does not have to fail', () => {
    expect(Object.keys(EXPECTED_FAILURES).every((scenario) => /^(completion|resources|prompts)-/.test(scenario))).toBe(true);
  });
});
