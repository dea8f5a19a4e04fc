import type { InvocationPlan } from '@milpa/tool-runtime/inspection';
import { formatTable } from './format-table.js';
import type { TerminalStyle } from './terminal-style.js';

/** Options of {@link formatPlan}. */
export interface FormatPlanOptions {
  /** Show each step's `source` (why it is in that state) under it; default true. */
  readonly sources?: boolean;
}

function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

function list(values: readonly string[]): string {
  return values.length === 0 ? '(none)' : values.join(', ');
}

/**
 * An `InvocationPlan` as a readable report: the caller (an absent principal reads `(anonymous)`,
 * never a made-up name), the wiring, the assumptions, then one row per step with its role,
 * presence, whether it can block, whether it mutates, and (optionally) its source.
 *
 * @example
 * process.stdout.write(formatPlan(registry.inspect('delete_note', ToolContext.telegram(42))!, style));
 */
export function formatPlan(plan: InvocationPlan, style: TerminalStyle, options: FormatPlanOptions = {}): string {
  const { context, wiring } = plan;
  let output =
    `${style.bold(`Invocation plan for '${plan.operation}' on ${plan.channel}`)} ` +
    `${style.dim(`(schema ${plan.schemaVersion}, nothing executed)`)}\n`;
  output += formatTable([
    ['actor', context.actor === null || context.actor === '' ? '(anonymous)' : context.actor],
    ['scopes', list(context.scopes)],
    ['mode', context.mode],
    ['wiring', `rateLimiter ${wiring.rateLimiter}, dispatcher ${wiring.dispatcher}, ruleProvider ${wiring.ruleProvider}`],
    ...(plan.assumptions.length === 0 ? [['assumptions', '(none)']] : plan.assumptions.map((assumption) => ['assumption', assumption])),
  ]);
  output += '\n';

  const rows = [['#', 'step', 'role', 'presence', 'blocking', 'mutates', 'wraps']];
  plan.steps.forEach((step, index) => {
    rows.push([String(index + 1), step.kind, step.role, step.presence, yesNo(step.blocking), yesNo(step.mutates), step.wraps ?? '-']);
  });
  const [header = '', ...lines] = formatTable(rows, { header: style.bold }).split('\n');
  output += `${header}\n`;
  const sources = options.sources ?? true;
  plan.steps.forEach((step, index) => {
    output += `${lines[index] ?? ''}\n`;
    if (sources) output += `${style.dim(`      ${step.source}`)}\n`;
  });
  return output;
}
