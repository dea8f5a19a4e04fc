import { DEMO_RATE_LIMIT, type DemoRuntime } from '../runtime/create-demo-runtime.js';
import type { TourState } from './tour-state.js';
import type { TourWriter } from './tour-writer.js';

/**
 * Writes the tour's opening: what the registry holds, how it is wired (naming `supervisedAgent`,
 * whose mutating calls wait for a person), where the state lives and how volatile values print.
 *
 * @example
 * writeTourIntro(out, demo, state, 'agent:assistant');
 */
export function writeTourIntro(out: TourWriter, demo: DemoRuntime, state: TourState, supervisedAgent: string): void {
  const { style } = out;
  const names = demo.registry.getToolDefinitions().map((definition) => definition.name);
  out.raw(`${style.bold('Milpa tour')} ${style.dim('— one registry; every call, whoever makes it, runs the same governed pipeline')}\n`);
  out.line(style.dim('plugin → capability → tool → verification → event → result'));
  out.line();
  out.line(
    `The registry holds ${names.length} tools: the demo plugin's, and the read-only built-ins of @milpa/tools: ${names.join(', ')}.`,
  );
  out.line(
    'Wiring: a logger, an EventDispatcher, SQLite stores (@milpa/store-sqlite) for confirmation tokens, ' +
      `the rate limit (${DEMO_RATE_LIMIT.maxTokens} tokens per ${DEMO_RATE_LIMIT.windowSeconds}s), ` +
      'verifications, held calls, run histories and idempotency keys, ' +
      `a HumanVerifier, an approval gate holding ${supervisedAgent}'s mutating calls for a person, ` +
      'two invocation rules over note targets and run histories, a cache and a veto listener; ' +
      'CliRenderer for cli, DefaultRenderer elsewhere.',
  );
  out.line(
    state.kept
      ? `State: ${state.stores.path}, empty at the start and kept when the tour ends.`
      : 'State: a fresh SQLite file for this tour, deleted when it ends (pnpm demo tour --db <file> keeps one).',
  );
  out.line(
    style.dim(
      'Request ids are fixed and confirm tokens, approval ids, run ids, expiry times and durations print as ‹…›, ' +
        'so every run reads the same.',
    ),
  );
}
