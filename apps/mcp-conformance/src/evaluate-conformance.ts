import type { ConformanceCheck } from './conformance-check.js';

/** The outcome of one scenario. */
export interface ScenarioOutcome {
  /** The scenario name. */
  readonly scenario: string;
  /** `pass`: no failed check and no warning; `fail` otherwise, or when no result was written. */
  readonly status: 'pass' | 'fail';
  /** Checks that succeeded. */
  readonly passed: number;
  /** Checks that failed. */
  readonly failed: number;
  /** Checks that warned (the CLI's own baseline counts a warning as a failure too). */
  readonly warnings: number;
  /** Why it failed, one line per failed or warning check. */
  readonly problems: readonly string[];
  /** The reason it may fail, when it is an expected failure. */
  readonly expectedFailure: string | null;
  /** True when it must pass. */
  readonly required: boolean;
}

/** The whole run: every scenario's outcome, the totals and the exit code. */
export interface ConformanceEvaluation {
  /** One outcome per scenario, in suite order. */
  readonly outcomes: readonly ScenarioOutcome[];
  /** Scenarios that passed. */
  readonly scenariosPassed: number;
  /** Scenarios that failed (expected or not). */
  readonly scenariosFailed: number;
  /** Checks that succeeded, over all scenarios. */
  readonly checksPassed: number;
  /** Checks that failed, over all scenarios. */
  readonly checksFailed: number;
  /** Failed scenarios that are not expected failures; any makes the run fail. */
  readonly unexpectedFailures: readonly string[];
  /** Expected failures that passed (their entry can go). */
  readonly staleExpectations: readonly string[];
  /** 0 when every scenario passed or failed as expected, else 1. */
  readonly exitCode: 0 | 1;
}

/** The plan the run is judged against. */
export interface ConformancePlan {
  /** Scenarios that must pass. */
  readonly required: readonly string[];
  /** Scenarios allowed to fail, with the reason. */
  readonly expectedFailures: Readonly<Record<string, string>>;
}

function describeProblem(check: ConformanceCheck): string {
  return `${check.status} ${check.id}: ${check.errorMessage ?? check.description ?? 'no detail'}`;
}

/**
 * Judges the suite's results: a scenario passes when none of its checks failed or warned; the run
 * fails when a scenario fails that is not an expected failure — every required scenario, and any
 * scenario the plan does not mention. A required scenario missing from the results fails too.
 */
export function evaluateConformance(
  scenarios: readonly string[],
  results: ReadonlyMap<string, readonly ConformanceCheck[]>,
  plan: ConformancePlan,
): ConformanceEvaluation {
  const names = [...scenarios, ...plan.required.filter((name) => !scenarios.includes(name))];
  const outcomes = names.map((scenario): ScenarioOutcome => {
    const checks = results.get(scenario);
    const required = plan.required.includes(scenario);
    const expectedFailure = required ? null : (plan.expectedFailures[scenario] ?? null);
    if (checks === undefined) {
      return {
        scenario,
        status: 'fail',
        passed: 0,
        failed: 0,
        warnings: 0,
        problems: ['no result was written for this scenario'],
        expectedFailure,
        required,
      };
    }
    const failed = checks.filter((check) => check.status === 'FAILURE');
    const warnings = checks.filter((check) => check.status === 'WARNING');
    return {
      scenario,
      status: failed.length === 0 && warnings.length === 0 ? 'pass' : 'fail',
      passed: checks.filter((check) => check.status === 'SUCCESS').length,
      failed: failed.length,
      warnings: warnings.length,
      problems: [...failed, ...warnings].map(describeProblem),
      expectedFailure,
      required,
    };
  });
  const failedOutcomes = outcomes.filter((outcome) => outcome.status === 'fail');
  const unexpectedFailures = failedOutcomes.filter((outcome) => outcome.expectedFailure === null).map((outcome) => outcome.scenario);
  return {
    outcomes,
    scenariosPassed: outcomes.length - failedOutcomes.length,
    scenariosFailed: failedOutcomes.length,
    checksPassed: outcomes.reduce((sum, outcome) => sum + outcome.passed, 0),
    checksFailed: outcomes.reduce((sum, outcome) => sum + outcome.failed, 0),
    unexpectedFailures,
    staleExpectations: outcomes
      .filter((outcome) => outcome.status === 'pass' && outcome.expectedFailure !== null)
      .map((outcome) => outcome.scenario),
    exitCode: unexpectedFailures.length === 0 ? 0 : 1,
  };
}
