import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolError } from '../../lifecycle/tool-error.js';
import { Workspace } from '../../sandbox/workspace.js';
import { checkShellArguments } from './check-shell-arguments.js';
import { tokenizeShellCommand } from './tokenize-shell-command.js';

let root: string;
let workspace: Workspace;

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'milpa-shell-args-')));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
  writeFileSync(join(root, 'list.txt'), 'src/a.ts\n');
  writeFileSync(join(root, '.env'), 'SECRET=1\n');
  mkdirSync(join(root, '.ssh'));
  symlinkSync('/etc', join(root, 'etc-link'));
  symlinkSync('src', join(root, 'src-link'));
  workspace = Workspace.at(root);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function codeOf(command: string): Promise<string> {
  const [program = '', ...args] = tokenizeShellCommand(command);
  try {
    await checkShellArguments(program, args, workspace);
  } catch (error) {
    if (error instanceof ToolError) return error.code;
    throw error;
  }
  return 'OK';
}

describe('checkShellArguments', () => {
  describe('paths', () => {
    it.each([
      ['ls /'],
      ['ls -R /'],
      ['ls /etc'],
      ['ls /proc/self'],
      ['cat /etc/passwd'],
      ['wc --files0-from=/etc/passwd'],
      ['date -f /etc/shadow'],
      ['date -f/etc/shadow'],
      ['ls ..'],
      ['ls ../'],
      ['ls src/../..'],
      ['ls src/../../x'],
      ['ls --ignore=..'],
      ['sleep /1'],
      ['echo a:/etc'],
    ])('refuses %s with PATH_OUTSIDE_WORKSPACE', async (command) => {
      expect(await codeOf(command)).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('refuses a symlink that leads out of the workspace', async () => {
      expect(await codeOf('ls etc-link')).toBe('PATH_OUTSIDE_WORKSPACE');
      expect(await codeOf('cat etc-link/passwd')).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('refuses a symlink leading out for a program without a policy, when the argument names it', async () => {
      expect(await codeOf('stat etc-link')).toBe('PATH_OUTSIDE_WORKSPACE');
    });

    it('refuses sensitive files and folders with SENSITIVE_PATH', async () => {
      expect(await codeOf('cat .env')).toBe('SENSITIVE_PATH');
      expect(await codeOf('wc -l .env')).toBe('SENSITIVE_PATH');
      expect(await codeOf('ls .ssh')).toBe('SENSITIVE_PATH');
      expect(await codeOf('grep SECRET .env')).toBe('SENSITIVE_PATH');
      expect(await codeOf('stat .env')).toBe('SENSITIVE_PATH');
    });

    it.each([
      ['sort -o.ssh/authorized_keys src/a.ts', 'SENSITIVE_PATH'],
      ['sort -o .ssh/authorized_keys src/a.ts', 'SENSITIVE_PATH'],
      ['sort -o.env src/a.ts', 'SENSITIVE_PATH'],
      ['sort -ro.env src/a.ts', 'SENSITIVE_PATH'],
      ['sort --output=.env src/a.ts', 'SENSITIVE_PATH'],
      ['sort -o.bashrc src/a.ts', 'BUILD_FILE'],
      ['sort -o.profile src/a.ts', 'BUILD_FILE'],
      ['sort -oMakefile src/a.ts', 'BUILD_FILE'],
      ['sort -opackage.json src/a.ts', 'BUILD_FILE'],
      ['sort -o.git/hooks/pre-commit src/a.ts', 'SENSITIVE_PATH'],
      ['sort -o.github/workflows/ci.yml src/a.ts', 'BUILD_FILE'],
      ['sort -onode_modules/.bin/tsc src/a.ts', 'BUILD_FILE'],
    ])('refuses %s: a sensitive or build path glued to a short option or given as a value, existing or not', async (command, code) => {
      expect(await codeOf(command)).toBe(code);
    });

    it('refuses a path reached through a symlink inside the workspace, for programs with and without a policy', async () => {
      expect(await codeOf('cat src-link/a.ts')).toBe('SYMLINK_REFUSED');
      expect(await codeOf('ls src-link')).toBe('SYMLINK_REFUSED');
      expect(await codeOf('stat src-link/a.ts')).toBe('SYMLINK_REFUSED');
      expect(await codeOf('sort -osrc-link/out.txt src/a.ts')).toBe('SYMLINK_REFUSED');
      expect(await codeOf('cat src/a.ts')).toBe('OK');
    });

    it('accepts an ordinary output file glued to a short option', async () => {
      expect(await codeOf('sort -oout.txt src/a.ts')).toBe('OK');
      expect(await codeOf('sort -n -k2 src/a.ts')).toBe('OK');
    });

    it('accepts relative paths inside the workspace, existing or not', async () => {
      expect(await codeOf('ls -la src')).toBe('OK');
      expect(await codeOf('ls src/missing')).toBe('OK');
      expect(await codeOf('wc -l src/a.ts list.txt')).toBe('OK');
      expect(await codeOf('grep -n a..b src/a.ts')).toBe('OK');
    });
  });

  describe('options of the default programs', () => {
    it.each([
      ['wc --files0-from=list.txt', 'reads a list of files'],
      ['wc --files0=list.txt', 'abbreviation of --files0-from'],
      ['date -f list.txt', 'reads dates from a file'],
      ['date --file=list.txt', 'reads dates from a file'],
      ['date -s 2020-01-01', 'sets the clock'],
      ['date --set=2020-01-01', 'sets the clock'],
      ['date -r list.txt', 'reads a file time'],
      ['date 010100002020', 'sets the clock by operand'],
      ['hostname -F list.txt', 'sets the hostname from a file'],
      ['hostname --file list.txt', 'sets the hostname from a file'],
      ['hostname evil', 'sets the hostname'],
      ['hostname -b', 'sets the hostname at boot'],
      ['ls -L src', 'follows symlinks'],
      ['ls --dereference src', 'follows symlinks'],
      ['ls --hum', 'abbreviations are not accepted'],
      ['ls --color=rainbow', 'an unknown colour mode'],
      ['pwd src', 'takes no operands'],
      ['whoami -x', 'no options'],
      ['uptime somefile', 'takes no operands'],
      ['tail -f list.txt', 'waits forever'],
      ['tail --follow list.txt', 'waits forever'],
      ['grep -r a src', 'recursion passes the sensitive-file checks'],
      ['grep -R a src', 'recursion follows symlinks'],
      ['grep -f list.txt src/a.ts', 'reads patterns from a file'],
      ['df --output=source --foo', 'an unknown option'],
      ['cat -x list.txt', 'an unknown flag'],
      ['head -n abc list.txt', 'a bad count'],
      ['wc --lines=5 list.txt', 'a flag given a value'],
    ])('refuses %s with ARGUMENT_NOT_ALLOWED (%s)', async (command) => {
      expect(await codeOf(command)).toBe('ARGUMENT_NOT_ALLOWED');
    });

    it.each([
      ['ls'],
      ['ls -la'],
      ['ls -lhR src'],
      ['ls --color=always src'],
      ['ls --color src'],
      ['ls -I node_modules'],
      ['ls --sort=size -- src'],
      ['pwd'],
      ['df'],
      ['df -h .'],
      ['df --output=source,size'],
      ['wc -l list.txt'],
      ['wc --total=only list.txt'],
      ['date'],
      ['date -u +%Y-%m-%d'],
      ['date -d yesterday'],
      ['date -d "2024-01-01 10:00" +%s'],
      ['date --iso-8601=seconds'],
      ['uptime -p'],
      ['hostname'],
      ['hostname -s'],
      ['whoami'],
      ['cat -n list.txt'],
      ['head -5 list.txt'],
      ['head -n 3 list.txt'],
      ['tail -n +2 list.txt'],
      ['grep -n export src/a.ts'],
      ['grep -e export -i src/a.ts'],
      ['ls --help'],
    ])('accepts %s', async (command) => {
      expect(await codeOf(command)).toBe('OK');
    });

    it('names the refused option and the allowed ones in the message', async () => {
      const [program = '', ...args] = tokenizeShellCommand('wc --files0-from=list.txt');
      await expect(checkShellArguments(program, args, workspace)).rejects.toThrow(
        /'--files0-from=list.txt' is not allowed for wc.*Allowed options: -c -l -m -w -L/,
      );
    });
  });

  describe('programs without an option policy', () => {
    it('refuses long options that read a file list or run a command, abbreviated too', async () => {
      expect(await codeOf('du --files0-from=list.txt')).toBe('ARGUMENT_NOT_ALLOWED');
      expect(await codeOf('sort --compress-program=gzip list.txt')).toBe('ARGUMENT_NOT_ALLOWED');
      expect(await codeOf('sort --compress=gzip list.txt')).toBe('ARGUMENT_NOT_ALLOWED');
      expect(await codeOf('du --exec=x')).toBe('ARGUMENT_NOT_ALLOWED');
    });

    it('accepts other arguments', async () => {
      expect(await codeOf('seq 1 10')).toBe('OK');
      expect(await codeOf('sleep 1')).toBe('OK');
      expect(await codeOf('du -sh src')).toBe('OK');
    });
  });
});
