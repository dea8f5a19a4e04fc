import { ToolContext } from '@milpa/core';
import { InvocationStepKind } from '@milpa/tool-runtime/inspection';
import { describe, expect, it } from 'vitest';
import { createDemoRuntime } from '../runtime/create-demo-runtime.js';
import { formatPlan } from './format-plan.js';
import { createTerminalStyle } from './terminal-style.js';

const plain = createTerminalStyle(false);

async function planFor(tool: string, context: ToolContext) {
  const { registry } = await createDemoRuntime();
  const plan = registry.inspect(tool, context);
  if (plan === null) throw new Error(`no plan for ${tool}`);
  return plan;
}

describe('formatPlan', () => {
  it('shows an absent principal as (anonymous) and the assumption that authorize would deny', async () => {
    const output = formatPlan(await planFor('delete_note', ToolContext.mcp('r1', null, [])), plain);
    expect(output).toContain("Invocation plan for 'delete_note' on mcp");
    expect(output).toMatch(/actor\s+\(anonymous\)/);
    expect(output).toContain('assumption  anonymous actor; mcp requires auth → authorize would deny');
  });

  it('lists every step, the invocation rules included, with role, presence, blocking, mutates and wraps', async () => {
    const output = formatPlan(await planFor('delete_note', ToolContext.cli('r1')), plain, { sources: false });
    const rows = output.split('\n').filter((line) => /^\s+\d+\s{2}/.test(line));
    expect(rows).toHaveLength(InvocationStepKind.inspectionOrder().length);
    expect(output).toMatch(/\d+\s+rules\s+guard\s+active\s+yes\s+no\s+-/);
    expect(rows[0]).toMatch(/1\s+resolve\s+guard\s+active\s+yes\s+no\s+-/);
    expect(output).toMatch(/contain_exception\s+boundary\s+active\s+no\s+no\s+execute/);
    expect(output).toMatch(/execute\s+execution\s+active\s+yes\s+yes/);
    expect(output).toContain('assumptions  (none)');
  });

  it('prints each source under its step when sources are on, and none when off', async () => {
    const plan = await planFor('delete_note', ToolContext.cli('r1'));
    expect(formatPlan(plan, plain)).toContain("channel 'cli': require_auth=false, allow_all=true");
    expect(formatPlan(plan, plain, { sources: false })).not.toContain('allow_all=true');
  });
});
