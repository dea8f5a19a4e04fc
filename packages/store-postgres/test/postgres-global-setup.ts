// Vitest global setup: asks the PostgreSQL at DATABASE_URL (or the PG* variables) for `SELECT 1`
// once, before any test file runs. Outside CI, without an answer, the PostgreSQL tests are skipped
// with one line saying so; with CI set, the run fails at once with one line instead of every test
// failing later.
import type { TestProject } from 'vitest/node';
import { missingInCiLine, postgresUrlOf, probePostgres, skippedLine } from './postgres-availability.js';

/** Probes PostgreSQL once and hands the result to the test files (`inject('postgres')`). */
export default async function setup(project: TestProject): Promise<void> {
  const availability = await probePostgres(postgresUrlOf(process.env));
  if (availability.unreachable !== null) {
    if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
      // Exits rather than throws: a thrown error reaches the reporter as an "Unhandled Error" banner
      // under a misleading "No test files found"; this way the run ends with the one line that matters.
      process.stderr.write(`${missingInCiLine(availability)}\n`);
      process.exit(1);
    }
    console.warn(skippedLine(availability));
  }
  project.provide('postgres', availability);
}
