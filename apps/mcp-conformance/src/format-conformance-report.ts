import type { ConformanceEvaluation } from './evaluate-conformance.js';

/** The human-readable report of a run: one line per scenario, the totals, the expected failures and why. */
export function formatConformanceReport(evaluation: ConformanceEvaluation, suiteVersion: string): string {
  const lines: string[] = [`MCP conformance suite ${suiteVersion} against @milpa/mcp`, ''];
  const width = Math.max(...evaluation.outcomes.map((outcome) => outcome.scenario.length));
  for (const outcome of evaluation.outcomes) {
    const mark = outcome.status === 'pass' ? 'PASS' : outcome.expectedFailure === null ? 'FAIL' : 'XFAIL';
    const counts = `${outcome.passed} passed, ${outcome.failed} failed${outcome.warnings > 0 ? `, ${outcome.warnings} warnings` : ''}`;
    const tag = outcome.required ? ' (required)' : '';
    lines.push(`${mark.padEnd(5)} ${outcome.scenario.padEnd(width)}  ${counts}${tag}`);
    if (outcome.status === 'fail' && outcome.expectedFailure === null) {
      for (const problem of outcome.problems) lines.push(`        ${problem}`);
    }
  }
  const total = evaluation.outcomes.length;
  lines.push(
    '',
    `Scenarios: ${evaluation.scenariosPassed} passed, ${evaluation.scenariosFailed} failed of ${total} ` +
      `(${evaluation.scenariosFailed - evaluation.unexpectedFailures.length} expected failures)`,
    `Checks:    ${evaluation.checksPassed} passed, ${evaluation.checksFailed} failed`,
  );
  const expected = evaluation.outcomes.filter((outcome) => outcome.status === 'fail' && outcome.expectedFailure !== null);
  if (expected.length > 0) {
    lines.push('', 'Expected failures:');
    for (const outcome of expected) lines.push(`  ${outcome.scenario}: ${outcome.expectedFailure}`);
  }
  if (evaluation.staleExpectations.length > 0) {
    lines.push('', `Now passing (remove from the expected failures): ${evaluation.staleExpectations.join(', ')}`);
  }
  lines.push('', evaluation.exitCode === 0 ? 'Result: OK' : `Result: FAILED (${evaluation.unexpectedFailures.join(', ')})`);
  return lines.join('\n');
}
