// Vitest global setup: asks the Redis at REDIS_URL for a PING once, before any test file runs.
// Outside CI, without an answer, the Redis tests are skipped with one line saying so; with CI set,
// the run fails at once with one line instead of every test failing later.
import type { TestProject } from 'vitest/node';
import { missingInCiLine, probeRedis, redisUrlOf, skippedLine } from './redis-availability.js';

/** Probes Redis once and hands the result to the test files (`inject('redis')`). */
export default async function setup(project: TestProject): Promise<void> {
  const availability = await probeRedis(redisUrlOf(process.env));
  if (availability.unreachable !== null) {
    if (process.env['CI'] !== undefined && process.env['CI'] !== '') {
      // Exits rather than throws: a thrown error reaches the reporter as an "Unhandled Error" banner
      // under a misleading "No test files found"; this way the run ends with the one line that matters.
      process.stderr.write(`${missingInCiLine(availability)}\n`);
      process.exit(1);
    }
    console.warn(skippedLine(availability));
  }
  project.provide('redis', availability);
}
