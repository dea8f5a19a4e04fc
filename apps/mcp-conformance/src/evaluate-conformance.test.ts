import { describe, expect, it } from 'vitest';
import type { ConformanceCheck } from './conformance-check.js';
import { evaluateConformance } from './evaluate-conformance.js';

const ok = (id: string): ConformanceCheck => ({ id, status: 'SUCCESS' });
const failing = (id: string): ConformanceCheck => ({ id, status: 'FAILURE', errorMessage: 'broken' });
const plan = { required: ['ping', 'tools-list'], expectedFailures: { 'prompts-list': 'tools only', ping: 'never honoured' } };

describe('evaluateConformance', () => {
  it('exits 0 when required scenarios pass and only expected failures fail', () => {
    const results = new Map([
      ['ping', [ok('ping')]],
      ['tools-list', [ok('tools-list'), { id: 'note', status: 'INFO' }]],
      ['prompts-list', [failing('prompts-list')]],
    ]);
    const evaluation = evaluateConformance(['ping', 'tools-list', 'prompts-list'], results, plan);
    expect(evaluation).toMatchObject({
      exitCode: 0,
      scenariosPassed: 2,
      scenariosFailed: 1,
      checksPassed: 2,
      checksFailed: 1,
      unexpectedFailures: [],
    });
    expect(evaluation.outcomes.find((outcome) => outcome.scenario === 'prompts-list')?.expectedFailure).toBe('tools only');
  });

  it('exits 1 when a required scenario fails, even if the plan also lists it as expected', () => {
    const results = new Map([
      ['ping', [failing('ping')]],
      ['tools-list', [ok('tools-list')]],
    ]);
    const evaluation = evaluateConformance(['ping', 'tools-list'], results, plan);
    expect(evaluation.exitCode).toBe(1);
    expect(evaluation.unexpectedFailures).toEqual(['ping']);
    expect(evaluation.outcomes[0]?.problems).toEqual(['FAILURE ping: broken']);
  });

  it('counts a warning as a failure, as the CLI baseline does', () => {
    const results = new Map([
      ['ping', [ok('ping'), { id: 'hint', status: 'WARNING', errorMessage: 'should do better' }]],
      ['tools-list', [ok('tools-list')]],
    ]);
    expect(evaluateConformance(['ping', 'tools-list'], results, plan).unexpectedFailures).toEqual(['ping']);
  });

  it('fails a scenario the plan does not mention when it fails', () => {
    const results = new Map([
      ['ping', [ok('ping')]],
      ['tools-list', [ok('tools-list')]],
      ['server-sse-multiple-streams', [failing('server-accepts-multiple-post-streams')]],
    ]);
    expect(evaluateConformance(['ping', 'tools-list', 'server-sse-multiple-streams'], results, plan).exitCode).toBe(1);
  });

  it('fails a required scenario that wrote no result or is missing from the suite', () => {
    const evaluation = evaluateConformance(['ping'], new Map([['ping', [ok('ping')]]]), plan);
    expect(evaluation.unexpectedFailures).toEqual(['tools-list']);
    expect(evaluation.outcomes.find((outcome) => outcome.scenario === 'tools-list')?.problems).toEqual([
      'no result was written for this scenario',
    ]);
  });

  it('reports an expected failure that now passes as stale without failing the run', () => {
    const results = new Map([
      ['ping', [ok('ping')]],
      ['tools-list', [ok('tools-list')]],
      ['prompts-list', [ok('prompts-list')]],
    ]);
    const evaluation = evaluateConformance(['ping', 'tools-list', 'prompts-list'], results, plan);
    expect(evaluation.staleExpectations).toEqual(['prompts-list']);
    expect(evaluation.exitCode).toBe(0);
  });
});
