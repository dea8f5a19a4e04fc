import { lstat } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { ToolError } from '../../lifecycle/tool-error.js';
import { buildPathReason, sensitivePathReason } from '../../sandbox/sensitive-paths.js';
import { PATH_OUTSIDE_WORKSPACE, type Workspace } from '../../sandbox/workspace.js';
import { POLICIES, type OptionPolicy } from './shell-option-policies.js';

/**
 * Long options refused for programs without an option policy (ones an operator added to the
 * allowlist): they read a list of files, or run a program or command. Matched on prefixes too,
 * since GNU programs accept any unambiguous abbreviation (`--files0` is `--files0-from`).
 */
const GENERIC_BLOCKED_LONG_OPTIONS: readonly string[] = [
  'files0-from',
  'compress-program',
  'use-compress-program',
  'to-command',
  'checkpoint-action',
  'exec',
  'execdir',
  'ok',
  'rsh-command',
  'rsync-path',
  'upload-pack',
  'receive-pack',
  'pager',
  'info-script',
  'new-volume-script',
  'command',
  'shell',
  'editor',
  'eval',
  'preprocessor',
  'filter',
];

// An absolute path at the start of an argument, after `=`, `:` or `,`, or attached to a short option (`-f/etc/x`).
const ABSOLUTE = /(?:^|[=:,]|^-[A-Za-z0-9]*)\//;
// A `..` segment in the same places, or after a `/`.
const PARENT = /(?:^|[/=:,]|^-[A-Za-z0-9]*)\.\.(?:$|[/:,])/;

/** The names of the programs that have an option policy. */
export const SHELL_OPTION_POLICY_PROGRAMS: readonly string[] = Object.freeze(Object.keys(POLICIES));

function refuseOption(program: string, option: string, policy: OptionPolicy | null, why?: string): never {
  const allowed =
    policy === null
      ? ''
      : ` Allowed options: ${
          [
            ...[...policy.flags, ...Object.keys(policy.valueFlags ?? {})].map((flag) => `-${flag}`),
            ...[...new Set([...policy.long, ...Object.keys(policy.longValues ?? {})])].map((name) => `--${name}`),
          ].join(' ') || '(none)'
        }.`;
  throw new ToolError(
    'ARGUMENT_NOT_ALLOWED',
    `'${option}' is not allowed for ${program}${why === undefined ? '' : `: ${why}`}.${allowed}`,
    { details: { program, argument: option } },
  );
}

/** The first part of `operand` (itself included) that is a symlink in the workspace, or null. */
async function symlinkOnTheWay(workspace: Workspace, operand: string): Promise<string | null> {
  const segments = posix
    .normalize(operand)
    .split('/')
    .filter((segment) => segment !== '' && segment !== '.');
  for (let depth = 1; depth <= segments.length; depth += 1) {
    const part = segments.slice(0, depth).join('/');
    try {
      if ((await lstat(join(workspace.root, part))).isSymbolicLink()) return part;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * Checks one path the program will use: inside the workspace (symlinks leading out refused), not a
 * sensitive file, and not reached through a symlink at all — the program opens the path itself,
 * later, so a link inside the workspace could be pointed elsewhere in between.
 */
async function checkPath(workspace: Workspace, program: string, operand: string): Promise<void> {
  const resolved = await workspace.resolve(operand);
  const reason = sensitivePathReason(resolved.relative) ?? sensitivePathReason(operand);
  if (reason !== null) {
    throw new ToolError('SENSITIVE_PATH', `${program} may not use '${operand}': ${reason}.`, { details: { program, argument: operand } });
  }
  await refuseSymlinkOnTheWay(workspace, program, operand);
}

async function refuseSymlinkOnTheWay(workspace: Workspace, program: string, operand: string): Promise<void> {
  const link = await symlinkOnTheWay(workspace, operand);
  if (link !== null) {
    throw new ToolError(
      'SYMLINK_REFUSED',
      `${program} may not use '${operand}': '${link}' is a symlink, and shell programs only get paths without symlinks.`,
      { details: { program, argument: operand } },
    );
  }
}

/**
 * What an argument of a program without a policy may name as a path: the argument itself, the value
 * of a `--name=value` option, and for a short-option cluster every text that could be a value glued
 * to one of its letters (`-o.bashrc` writes `.bashrc`; `-ko.bashrc` too).
 */
function pathCandidates(argument: string): string[] {
  if (argument.startsWith('--')) {
    const equals = argument.indexOf('=');
    return equals < 0 ? [] : [argument.slice(equals + 1)];
  }
  if (argument.startsWith('-') && argument.length > 2) {
    const candidates: string[] = [];
    for (let position = 2; position < argument.length; position += 1) candidates.push(argument.slice(position));
    return candidates;
  }
  return argument.startsWith('-') ? [] : [argument];
}

async function existsInWorkspace(workspace: Workspace, candidate: string): Promise<boolean> {
  if (candidate === '' || candidate === '-') return false;
  try {
    await lstat(join(workspace.root, candidate));
    return true;
  } catch {
    return false;
  }
}

async function checkGeneric(program: string, args: readonly string[], workspace: Workspace): Promise<void> {
  for (const argument of args) {
    if (argument.startsWith('--')) {
      const name = argument.slice(2).split('=')[0] ?? '';
      if (name !== '' && GENERIC_BLOCKED_LONG_OPTIONS.some((blocked) => blocked.startsWith(name))) {
        refuseOption(program, argument, null, 'it reads a list of files or runs a command');
      }
    }
    // Without a policy it is unknown which arguments are paths, or whether the program writes them:
    // every candidate is refused when it names a sensitive, build or repository file (existing or
    // not: `sort -o.bashrc` would create one), and any that names something in the workspace is
    // checked like a path (symlinks, inside the root).
    for (const candidate of pathCandidates(argument)) {
      const name = posix.normalize(candidate);
      const sensitive = sensitivePathReason(name);
      const build = sensitive === null ? buildPathReason(name) : null;
      if (sensitive !== null || build !== null) {
        throw new ToolError(
          sensitive !== null ? 'SENSITIVE_PATH' : 'BUILD_FILE',
          `${program} may not use '${candidate}': ${sensitive ?? build}.`,
          {
            details: { program, argument },
          },
        );
      }
      if (await existsInWorkspace(workspace, candidate)) await checkPath(workspace, program, candidate);
      else await refuseSymlinkOnTheWay(workspace, program, candidate);
    }
  }
}

/**
 * Checks the arguments of an allowlisted program before it runs; throws a `ToolError` on the first
 * problem. Every argument is refused (`PATH_OUTSIDE_WORKSPACE`) when it holds an absolute path or a
 * `..` segment (also after `=` or attached to a short option), since paths are relative to the
 * workspace. Programs of the default allowlist and the read-only list then follow an option
 * allowlist (`ARGUMENT_NOT_ALLOWED`), and their path operands are resolved inside the workspace
 * (symlinks leading out refused) and checked against the sensitive-file lists (`SENSITIVE_PATH`).
 * Other programs get the generic checks: no option that reads a file list or runs a command; every
 * argument, option value and text glued to a short option (`-o.bashrc`) that names a sensitive,
 * build or repository file is refused, and any naming an existing workspace path is checked as a
 * path. A path reached through a symlink is refused (`SYMLINK_REFUSED`) for every program.
 */
export async function checkShellArguments(program: string, args: readonly string[], workspace: Workspace): Promise<void> {
  for (const argument of args) {
    if (ABSOLUTE.test(argument) || PARENT.test(argument)) {
      throw new ToolError(
        PATH_OUTSIDE_WORKSPACE,
        `'${argument}' points outside the workspace: paths are relative to the workspace root, without absolute paths or '..'.`,
        { details: { program, argument } },
      );
    }
  }
  const policy = Object.hasOwn(POLICIES, program) ? POLICIES[program] : undefined;
  if (policy === undefined) {
    await checkGeneric(program, args, workspace);
    return;
  }

  const operands: string[] = [];
  let patternGiven = false;
  let endOfOptions = false;
  for (let index = 0; index < args.length; index += 1) {
    const argument = args[index] as string;
    if (!endOfOptions && argument === '--') {
      endOfOptions = true;
    } else if (!endOfOptions && argument.startsWith('--')) {
      const equals = argument.indexOf('=');
      const name = equals < 0 ? argument.slice(2) : argument.slice(2, equals);
      let value = equals < 0 ? undefined : argument.slice(equals + 1);
      if (value === undefined && (name === 'help' || name === 'version' || policy.long.includes(name))) continue;
      const pattern = policy.longValues?.[name];
      if (pattern === undefined) refuseOption(program, argument, policy, policy.long.includes(name) ? 'it takes no value' : undefined);
      if (value === undefined) {
        index += 1;
        value = args[index];
        if (value === undefined) refuseOption(program, argument, policy, 'it needs a value');
      }
      if (!pattern.test(value)) refuseOption(program, `--${name}=${value}`, policy, 'the value is not accepted');
      if (name === 'regexp') patternGiven = true;
    } else if (!endOfOptions && argument.startsWith('-') && argument !== '-') {
      if (policy.numericFlag === true && /^-[0-9]+$/.test(argument)) continue;
      for (let position = 1; position < argument.length; position += 1) {
        const flag = argument[position] as string;
        if (policy.flags.includes(flag)) continue;
        const pattern = policy.valueFlags?.[flag];
        if (pattern === undefined) refuseOption(program, `-${flag}`, policy);
        let value: string | undefined = argument.slice(position + 1);
        if (value === '') {
          index += 1;
          value = args[index];
          if (value === undefined) refuseOption(program, `-${flag}`, policy, 'it needs a value');
        }
        if (!pattern.test(value)) refuseOption(program, `-${flag} ${value}`, policy, 'the value is not accepted');
        if (flag === 'e') patternGiven = true;
        break;
      }
    } else {
      operands.push(argument);
    }
  }

  let paths = operands;
  if (policy.operands === 'none' && operands.length > 0) {
    refuseOption(program, operands[0] as string, policy, `${program} takes no operands here`);
  } else if (policy.operands === 'date-format') {
    const bad = operands.find((operand) => !operand.startsWith('+'));
    if (bad !== undefined || operands.length > 1) {
      refuseOption(program, bad ?? (operands[1] as string), policy, 'the only operand allowed is one +FORMAT');
    }
    paths = [];
  } else if (policy.operands === 'pattern-then-paths' && !patternGiven) {
    paths = operands.slice(1);
  }
  for (const operand of paths) await checkPath(workspace, program, operand);
}
