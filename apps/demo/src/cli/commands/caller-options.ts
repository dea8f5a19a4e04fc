import { Option, type Command } from 'commander';
import { CALLER_CHANNELS, type CallerChannel, type CallerOptions } from '../caller-context.js';
import { collectScopes } from './collect-scopes.js';

/** The parsed caller flags shared by `inspect` and `call`. */
export interface CallerFlags {
  /** `--channel`. */
  readonly channel: CallerChannel;
  /** `--actor`. */
  readonly actor?: string;
  /** `--scope`, every occurrence, comma lists split. */
  readonly scope?: readonly string[];
  /** `--plan`. */
  readonly plan?: boolean;
}

/** Options of {@link addCallerOptions}. */
export interface CallerOptionsSettings {
  /** Add `--plan`; default true (`tools` builds no call, so it has no plan mode). */
  readonly plan?: boolean;
}

/**
 * Adds `--channel`, `--actor`, `--scope` (repeatable, comma lists allowed) and, unless
 * `settings.plan` is false, `--plan` to `command`.
 *
 * @example
 * addCallerOptions(program.command('inspect').argument('<tool>'));
 */
export function addCallerOptions(command: Command, settings: CallerOptionsSettings = {}): Command {
  const withCaller = command
    .addOption(new Option('--channel <channel>', 'the channel the call arrives on').choices(CALLER_CHANNELS).default('cli'))
    .option('--actor <principal>', 'the calling principal (omitted: anonymous, except on cli)')
    .option('--scope <scope>', 'a scope the caller holds; repeat it or give a comma list', collectScopes);
  return settings.plan === false ? withCaller : withCaller.option('--plan', 'build the caller in plan mode (checked, never executed)');
}

/** The {@link CallerOptions} the flags describe. */
export function toCallerOptions(flags: CallerFlags, requestId?: string): CallerOptions {
  return { channel: flags.channel, actor: flags.actor, scopes: flags.scope, requestId, plan: flags.plan === true };
}
