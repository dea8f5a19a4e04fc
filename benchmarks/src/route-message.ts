/**
 * Routing one 2,000-word message (a one-line request, then a pasted document) over 100, 1,000 and
 * 10,000 tools with `ToolRouter`, per call, warm: from benchmarks/,
 * `pnpm exec tsx --conditions=@milpa/source src/route-message.ts` (about half a minute; prints the
 * figures, writes nothing; `BENCH_QUICK=1` for fewer repeats). `createRouteMessageRow` is the same
 * measurement as a suite row.
 */
import { fileURLToPath } from 'node:url';
import { defineTool, type AnyToolDefinition } from '@milpa/core';
import { ToolRouter, resolveToolBudget, type ToolRouteOptions } from '@milpa/tool-runtime/routing';
import { assertCheck } from './harness/assert-check.js';
import type { CallRow } from './harness/call-row.js';
import { measureRows, type MeasureSettings } from './harness/measure-rows.js';

/** Words of the message and the tools' hints: a shared vocabulary, so most words match some tool. */
const VOCABULARY = [
  'account',
  'address',
  'alert',
  'archive',
  'audit',
  'backup',
  'balance',
  'billing',
  'branch',
  'budget',
  'calendar',
  'campaign',
  'cart',
  'catalog',
  'channel',
  'checkout',
  'comment',
  'contact',
  'contract',
  'coupon',
  'customer',
  'dashboard',
  'deadline',
  'delivery',
  'deploy',
  'device',
  'discount',
  'document',
  'domain',
  'draft',
  'email',
  'employee',
  'event',
  'expense',
  'export',
  'feedback',
  'folder',
  'forecast',
  'invoice',
  'issue',
  'ledger',
  'license',
  'meeting',
  'message',
  'metric',
  'milestone',
  'note',
  'order',
  'payment',
  'payroll',
  'pipeline',
  'playlist',
  'policy',
  'portfolio',
  'price',
  'product',
  'profile',
  'project',
  'receipt',
  'refund',
  'release',
  'report',
  'reservation',
  'review',
  'schedule',
  'search',
  'server',
  'shipment',
  'snapshot',
  'sprint',
  'subscription',
  'supplier',
  'survey',
  'task',
  'team',
  'template',
  'ticket',
  'timesheet',
  'transfer',
  'upload',
  'user',
  'vendor',
  'version',
  'warehouse',
  'webhook',
  'workflow',
] as const;
const VERBS = ['create', 'delete', 'update', 'list', 'find', 'archive', 'export', 'import', 'approve', 'cancel'] as const;
const FILLER = ['the', 'and', 'which', 'was', 'for', 'with', 'about', 'this', 'that', 'from'] as const;
const MESSAGE_WORDS = 2000;
const TOOL_COUNTS = [100, 1000, 10_000] as const;
// The only tool with this intent; the request asks for it, the pasted document never says it.
const WANTED_TOOL = 'reconcile_ledger_entries';
const MODEL = 'gpt-4o-mini';

/** A deterministic pseudo-random sequence (mulberry32), so every run routes the same message. */
function sequence(start: number): () => number {
  let state = start >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(list: readonly T[], next: () => number): T {
  return list[Math.floor(next() * list.length)] as T;
}

/** `count` frozen tool definitions with routing hints, the last one the tool the message asks for. */
function routingBenchTools(count: number): AnyToolDefinition[] {
  const next = sequence(count);
  const tools: AnyToolDefinition[] = [];
  for (let index = 0; tools.length < count - 1; index++) {
    const verb = pick(VERBS, next);
    const noun = pick(VOCABULARY, next);
    tools.push(
      defineTool({
        name: `${verb}_${noun}_${index}`,
        description: `${verb} a ${noun} of the ${pick(VOCABULARY, next)}.\nReturns the ${noun} as JSON.`,
        routing: {
          intents: [verb],
          domains: [noun, pick(VOCABULARY, next)],
          tags: [pick(VOCABULARY, next), pick(VOCABULARY, next)],
          examples: [`${verb} the ${noun} for ${pick(VOCABULARY, next)}`],
        },
        handler: () => null,
      }),
    );
  }
  tools.push(
    defineTool({
      name: WANTED_TOOL,
      description: 'Reconcile ledger entries against bank statements.',
      routing: { intents: ['reconcile'], domains: ['ledger', 'bank'], tags: ['accounting'] },
      handler: () => null,
    }),
  );
  return tools;
}

/** A request followed by a pasted document, 2,000 words in all. */
function routingBenchMessage(): string {
  const next = sequence(2000);
  const request = 'Please reconcile the ledger with the bank statement below:';
  const words: string[] = request.split(' ');
  while (words.length < MESSAGE_WORDS)
    words.push(next() < 0.35 ? pick(FILLER, next) : next() < 0.8 ? pick(VOCABULARY, next) : pick(VERBS, next));
  return words.join(' ');
}

/**
 * The row: one `router.route(tools, message, options)` per call over `toolCount` frozen definitions
 * (so the router's per-tool words are cached, as for a registry's tools), budget 8 (`gpt-4o-mini`).
 */
export function createRouteMessageRow(toolCount: number): CallRow {
  const router = new ToolRouter();
  const tools = routingBenchTools(toolCount);
  const message = routingBenchMessage();
  const options: ToolRouteOptions = { budget: resolveToolBudget({ profile: 'full', model: MODEL }), profile: 'full' };
  return {
    id: `R${toolCount}`,
    label: `route a ${MESSAGE_WORDS.toLocaleString('en-US')}-word message over ${toolCount.toLocaleString('en-US')} tools`,
    group: 'tool-count',
    check: async () => {
      assertCheck(message.split(' ').length === MESSAGE_WORDS, `the message has ${message.split(' ').length} words`);
      const selection = router.route(tools, message, options);
      assertCheck(selection.ranked, 'the router did not rank');
      assertCheck(selection.tools.length === options.budget, `${selection.tools.length} tools offered, not ${options.budget}`);
      assertCheck(selection.ranking[0] === WANTED_TOOL, `the request's tool ranked ${selection.ranking.indexOf(WANTED_TOOL) + 1}`);
    },
    batch: async (n) => {
      for (let index = 0; index < n; index++) router.route(tools, message, options);
    },
  };
}

async function main(): Promise<void> {
  const quick = process.env['BENCH_QUICK'] === '1';
  const settings: MeasureSettings = quick ? { batchMs: 60, warmupMs: 300, repeats: 9 } : { batchMs: 60, warmupMs: 500, repeats: 21 };
  const rows = TOOL_COUNTS.map((count) => createRouteMessageRow(count));
  const measurements = await measureRows(rows, settings, (message) => process.stderr.write(`[bench] ${message}\n`));
  for (const { row, stats, callsPerBatch } of measurements) {
    const perCall = (stats.median / 1e6).toFixed(3);
    process.stdout.write(
      `${row.id.padEnd(7)} ${row.label.padEnd(52)} ${perCall.padStart(8)} ms/call  ` +
        `±${stats.spreadPercent.toFixed(0)} %  (${callsPerBatch} calls/batch)\n`,
    );
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
