import { describe, expect, it } from 'vitest';
import { InvocationHistory, type InvocationObservation } from './invocation-history.js';
import { InvocationOutcome } from './invocation-outcome.js';

const observations: InvocationObservation[] = [
  { tool: 'delete_note', outcome: 'executed', target: { kind: 'note', id: '1' } },
  { tool: 'delete_note', outcome: 'invocation_denied', target: { kind: 'note', id: '2' } },
  { tool: 'read_note', outcome: 'executed', target: { kind: 'note', id: '1' } },
  { tool: 'delete_note', outcome: 'executed', target: null },
];

describe('InvocationHistory', () => {
  it('is complete and empty for a fresh run, incomplete and empty for an unknown one', () => {
    expect(InvocationHistory.empty()).toMatchObject({ complete: true, length: 0 });
    expect(InvocationHistory.unknown()).toMatchObject({ complete: false, length: 0 });
  });

  it('keeps a frozen copy of the observations, so changing the source changes nothing', () => {
    const source = [{ ...observations[0]! }];
    const history = new InvocationHistory(source, true);
    source.push(observations[1]!);
    (source[0] as { tool: string }).tool = 'changed';
    expect(history.observations).toEqual([observations[0]]);
    expect(Object.isFrozen(history.observations)).toBe(true);
    expect(Object.isFrozen(history.observations[0])).toBe(true);
  });

  it('counts observations by tool, outcome and target', () => {
    const history = new InvocationHistory(observations, true);
    expect(history.count()).toBe(4);
    expect(history.count({ tool: 'delete_note', outcome: 'executed' })).toBe(2);
    expect(history.count({ tool: ['delete_note', 'read_note'], outcome: ['executed'] })).toBe(3);
    expect(history.count({ targetKind: 'note', targetId: '1' })).toBe(2);
    expect(history.count({ targetId: '3' })).toBe(0);
  });

  it('tells whether any observation matches', () => {
    const history = new InvocationHistory(observations, false);
    expect(history.some({ tool: 'read_note', targetId: '1' })).toBe(true);
    expect(history.some({ tool: 'read_note', outcome: 'failed' })).toBe(false);
  });
});

describe('InvocationOutcome', () => {
  it('lists every terminal outcome once', () => {
    expect(new Set(InvocationOutcome.values).size).toBe(InvocationOutcome.values.length);
    expect(InvocationOutcome.isInvocationOutcome('invocation_denied')).toBe(true);
    expect(InvocationOutcome.isInvocationOutcome('deleted')).toBe(false);
  });
});

describe('InvocationHistory calls in flight', () => {
  const inFlight = [
    { tool: 'delete_note', target: { kind: 'note', id: '3' } },
    { tool: 'read_note', target: null },
  ];

  it('counts the calls in flight as matching any outcome, so a limit sees the calls that may still execute', () => {
    const history = new InvocationHistory(observations, true, inFlight);
    expect(history.count({ tool: 'delete_note', outcome: 'executed' })).toBe(3);
    expect(history.count({ tool: 'delete_note', outcome: 'failed' })).toBe(1);
    expect(history.count()).toBe(6);
    expect(history.count({ targetId: '3' })).toBe(1);
    expect(history.count({ targetKind: 'page' })).toBe(0);
    expect(history.some({ tool: 'read_note', outcome: 'failed' })).toBe(true);
    expect(history.length).toBe(4);
  });

  it('leaves the calls in flight out when includeInFlight is false', () => {
    const history = new InvocationHistory(observations, true, inFlight);
    expect(history.count({ tool: 'delete_note', outcome: 'executed', includeInFlight: false })).toBe(2);
    expect(history.some({ tool: 'read_note', outcome: 'failed', includeInFlight: false })).toBe(false);
    expect(history.some({ targetId: '3', includeInFlight: false })).toBe(false);
  });

  it('keeps a frozen copy of the calls in flight, with their tool and target only', () => {
    const source = [{ tool: 'delete_note', target: { kind: 'note', id: '3' }, arguments: { id: 3 } }];
    const history = new InvocationHistory([], true, source);
    source[0]!.target.id = '4';
    expect(history.inFlight).toEqual([{ tool: 'delete_note', target: { kind: 'note', id: '3' } }]);
    expect(Object.isFrozen(history.inFlight[0])).toBe(true);
    expect(Object.isFrozen(history.inFlight[0]?.target)).toBe(true);
    expect(InvocationHistory.empty().inFlight).toEqual([]);
  });
});
