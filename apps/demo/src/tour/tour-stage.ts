import { ToolContext, ToolResult, readInBandControls } from '@milpa/core';
import type { DemoRuntime } from '../runtime/create-demo-runtime.js';
import type { TourWriter } from './tour-writer.js';

/** The volatile values of a call's result, each printed as `‹label›` from then on. */
export type ResultMasks = (result: ToolResult) => readonly (readonly [value: string | null, label: string])[];

/** The callers the tour's scenes call as, each with the next fixed request id (`tour-01`, `tour-02`, …). */
export interface TourCallers {
  /** The local operator, optionally in a run. */
  cli(runId?: string | null): ToolContext;
  /** An MCP caller that never authenticated. */
  anonymousMcp(): ToolContext;
  /** An authenticated MCP caller. */
  mcp(principal: string, scopes: readonly string[]): ToolContext;
  /** A web user. */
  web(principal: string, scopes: readonly string[]): ToolContext;
  /** A telegram user in the demo chat, optionally in a run. */
  telegram(principal: string, runId?: string | null): ToolContext;
}

/** What the scenes act with: the callers, and one real call printed with its result. */
export interface TourStage {
  /** The callers. */
  readonly as: TourCallers;
  /** One real call, printed; `masksOf` names the volatile values of its result to mask before it prints. */
  run(name: string, args: Readonly<Record<string, unknown>>, context: ToolContext, masksOf?: ResultMasks): Promise<ToolResult>;
}

/**
 * The tour's stage over `registry`, writing to `out`: request ids are numbered from `tour-01`, so the
 * transcript is the same on every run.
 *
 * @example
 * const { as, run } = createTourStage(out, demo.registry);
 * await run('list_notes', {}, as.cli());
 */
export function createTourStage(out: TourWriter, registry: DemoRuntime['registry']): TourStage {
  let sequence = 0;
  const nextId = (): string => `tour-${String(++sequence).padStart(2, '0')}`;
  const as: TourCallers = {
    cli: (runId = null) => ToolContext.cli(nextId()).with({ runId }),
    anonymousMcp: () => ToolContext.mcp(nextId(), null, []),
    mcp: (principal, scopes) => ToolContext.mcp(nextId(), principal, scopes),
    web: (principal, scopes) => ToolContext.web(principal, scopes).with({ requestId: nextId() }),
    telegram: (principal, runId = null) =>
      ToolContext.telegram(4242, principal).with({ requestId: nextId(), scopes: ['notes:read', 'notes:write'], runId }),
  };
  const run = async (
    name: string,
    args: Readonly<Record<string, unknown>>,
    context: ToolContext,
    masksOf: ResultMasks = () => [],
  ): Promise<ToolResult> => {
    out.call(name, args, context);
    // The tour's agent sends confirm_token and approval_id back among its arguments, as a model does:
    // read them as the call options they are, as every model-facing boundary does.
    const read = readInBandControls(args);
    const result = read.ok
      ? await registry.call(name, read.args, context, read.controls)
      : ToolResult.failure(read.code, read.message, null, { tool: name });
    for (const [value, label] of masksOf(result)) out.mask(value, label);
    out.result(result, context);
    return result;
  };
  return { as, run };
}

/** The masks of a held call's result: its approval_id as `‹label›`, its expiry as `‹expires_at›`. */
export function maskApproval(label: string): ResultMasks {
  return (result) => [
    [result.getPendingApproval()?.approvalId ?? null, label],
    [result.getPendingApproval()?.expiresAt ?? null, 'expires_at'],
  ];
}

/** The approval_id of a held call (empty when the call was not held, which the transcript then shows). */
export function approvalIdOf(result: ToolResult): string {
  return result.getPendingApproval()?.approvalId ?? '';
}

/** Opens a run with `registry.startRun()`; its random id prints as `‹label›`, so the transcript stays the same. */
export async function openRun(registry: DemoRuntime['registry'], out: TourWriter, label: string): Promise<string> {
  const runId = await registry.startRun();
  out.mask(runId, label);
  return runId;
}
