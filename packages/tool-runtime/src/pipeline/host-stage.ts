import type { AnyToolDefinition, ToolArgs, ToolContext, ToolResult } from '@milpa/core';

/** What a host stage sees of a call: the tool, its validated (frozen) arguments, the caller. */
export interface HostStageCall {
  /** The tool being called. */
  readonly tool: AnyToolDefinition;
  /** The validated arguments, deeply frozen: exactly what the handler will receive. */
  readonly args: ToolArgs;
  /**
   * Whether this call mutates: the tool's flag, or its per-call function's answer for these
   * arguments (asked once per call; a throw or non-boolean answer counts as mutating). Read this,
   * never `tool.mutating`, so every check agrees with the runtime's own gates.
   */
  readonly mutating: boolean;
  /** Who is calling, from where. */
  readonly context: ToolContext;
  /** The caller's abort signal, if it gave one. */
  readonly signal: AbortSignal | undefined;
}

/**
 * A host stage's answer: nothing to let the call go on, or a failed `ToolResult` to refuse it
 * (its `meta.code` is kept, `FORBIDDEN` when it has none). Anything else refuses the call as a
 * misbehaving stage.
 */
export type HostStageAnswer = ToolResult | undefined | void;

/**
 * A guard of the host's own, run at a named position of the pipeline like any built-in stage:
 * contained (a throw or rejection refuses the call, fail-closed), abandoned with `TIMEOUT` when the
 * caller aborts while it waits, and listed by `inspect` under its own name.
 *
 * @example
 * const tenantGuard: HostStage = {
 *   name: 'tenant_guard',
 *   description: 'refuses pages outside the caller\'s own site',
 *   check: ({ args, context }) =>
 *     args['site'] === context.extra['site'] ? undefined : ToolResult.failure('FORBIDDEN', 'Not your site'),
 * };
 * new ToolRegistry({ stages: [{ before: 'rate_limit', stage: tenantGuard }] });
 */
export interface HostStage {
  /** Lower-case letters, digits and `_`, starting with a letter, at most 64 characters; unique per registry. */
  readonly name: string;
  /** What the stage checks, shown by `inspect` as the step's source. */
  readonly description?: string;
  /** Checks one call. May be async. */
  check(call: HostStageCall): HostStageAnswer | Promise<HostStageAnswer>;
}

/**
 * The built-in stages a host stage may run right before: every one after validation, up to
 * `emit_executing` (a host stage sees validated arguments and must run before `tool.executing`).
 */
export const HOST_STAGE_BEFORE_ANCHORS = Object.freeze([
  'authorize',
  'rules',
  'rate_limit',
  'plan_mode',
  'confirm',
  'approve',
  'rules_replay',
  'emit_executing',
] as const);

/** The built-in stages a host stage may run right after: from `validate` to `rules_replay`. */
export const HOST_STAGE_AFTER_ANCHORS = Object.freeze([
  'validate',
  'authorize',
  'rules',
  'rate_limit',
  'plan_mode',
  'confirm',
  'approve',
  'rules_replay',
] as const);

/** The built-in stages a host stage may be placed against; every position is before `tool.executing`. */
export type HostStageAnchor = (typeof HOST_STAGE_BEFORE_ANCHORS)[number] | (typeof HOST_STAGE_AFTER_ANCHORS)[number];

/**
 * Where a host stage runs: right `before` or right `after` a built-in stage (exactly one of the
 * two). A host stage sees validated arguments, so it runs after `validate` at the earliest, and it
 * must run before `tool.executing` (`before: 'emit_executing'` at the latest). Several host stages
 * at one position run in the order they are given.
 */
export type HostStagePlacement =
  | { readonly before: (typeof HOST_STAGE_BEFORE_ANCHORS)[number]; readonly after?: undefined; readonly stage: HostStage }
  | { readonly after: (typeof HOST_STAGE_AFTER_ANCHORS)[number]; readonly before?: undefined; readonly stage: HostStage };
