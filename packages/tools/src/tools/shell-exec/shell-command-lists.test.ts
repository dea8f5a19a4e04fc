import { describe, expect, it } from 'vitest';
import { DEFAULT_SHELL_ALLOWLIST, SHELL_READ_ONLY_COMMANDS, isShellCommandBlocked } from './shell-command-lists.js';

describe('isShellCommandBlocked', () => {
  it.each([['rm'], ['sudo'], ['curl'], ['bash'], ['env'], ['xargs'], ['find'], ['awk'], ['sed'], ['git'], ['tar'], ['ln']])(
    'returns true for %s',
    (program) => {
      expect(isShellCommandBlocked(program)).toBe(true);
    },
  );

  it.each([
    ['gzip'],
    ['gunzip'],
    ['bzip2'],
    ['xz'],
    ['zstd'],
    ['pigz'],
    ['unzip'],
    ['7z'],
    ['shred'],
    ['truncate'],
    ['strip'],
    ['patch'],
    ['rename'],
    ['sponge'],
    ['split'],
  ])('returns true for %s, which deletes, replaces or rewrites its input files', (program) => {
    expect(isShellCommandBlocked(program)).toBe(true);
  });

  it('matches without regard to case, version suffixes or dotted variants', () => {
    expect(isShellCommandBlocked('RM')).toBe(true);
    expect(isShellCommandBlocked('python3')).toBe(true);
    expect(isShellCommandBlocked('python3.12')).toBe(true);
    expect(isShellCommandBlocked('perl5.36')).toBe(true);
    expect(isShellCommandBlocked('mkfs.ext4')).toBe(true);
  });

  it('returns false for the default and read-only programs and harmless look-alikes', () => {
    for (const program of [...DEFAULT_SHELL_ALLOWLIST, ...SHELL_READ_ONLY_COMMANDS, 'sha256sum', 'base64', 'seq', 'sleep', 'printenv']) {
      expect(isShellCommandBlocked(program), program).toBe(false);
    }
  });
});
