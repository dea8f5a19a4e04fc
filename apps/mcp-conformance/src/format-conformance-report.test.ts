import { describe, expect, it } from 'vitest';
import { evaluateConformance } from './evaluate-conformance.js';
import { formatConformanceReport } from './format-conformance-report.js';

describe('formatConformanceReport', () => {
  it('prints one line per scenario, the totals, the expected failures with reasons and the result', () => {
    const evaluation = evaluateConformance(
      ['ping', 'prompts-list', 'tools-list'],
      new Map([
        ['ping', [{ id: 'ping', status: 'SUCCESS' }]],
        ['prompts-list', [{ id: 'prompts-list', status: 'FAILURE' }]],
        ['tools-list', [{ id: 'tools-list', status: 'FAILURE', errorMessage: 'Tool 0: missing description' }]],
      ]),
      { required: ['ping', 'tools-list'], expectedFailures: { 'prompts-list': 'tools only' } },
    );
    expect(formatConformanceReport(evaluation, '0.1.13')).toBe(
      [
        'MCP conformance suite 0.1.13 against @milpa/mcp',
        '',
        'PASS  ping          1 passed, 0 failed (required)',
        'XFAIL prompts-list  0 passed, 1 failed',
        'FAIL  tools-list    0 passed, 1 failed (required)',
        '        FAILURE tools-list: Tool 0: missing description',
        '',
        'Scenarios: 1 passed, 2 failed of 3 (1 expected failures)',
        'Checks:    1 passed, 2 failed',
        '',
        'Expected failures:',
        '  prompts-list: tools only',
        '',
        'Result: FAILED (tools-list)',
      ].join('\n'),
    );
  });
});
