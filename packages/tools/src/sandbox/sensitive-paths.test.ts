import { describe, expect, it } from 'vitest';
import { buildPathReason, executablePathReason, isSkippedDirectory, sensitivePathReason } from './sensitive-paths.js';

describe('sensitivePathReason', () => {
  it.each([
    ['.env', 'holds secrets'],
    ['.env.local', 'holds secrets'],
    ['config/.env.production', 'holds secrets'],
    ['.ENV', 'holds secrets'],
    ['id_rsa', 'holds secrets'],
    ['keys/ID_ED25519', 'holds secrets'],
    ['.ssh/config', "sensitive folder '.ssh'"],
    ['home/.SSH/known', "sensitive folder '.ssh'"],
    ['.git/config', "sensitive folder '.git'"],
    ['.aws', 'is a sensitive folder'],
    ['x.pem', "'.pem' files"],
    ['certs/server.KEY', "'.key' files"],
    ['.npmrc', 'holds secrets'],
    ['prod.env', 'holds secrets'],
    ['config/.env-prod', 'holds secrets'],
    ['.env_staging', 'holds secrets'],
    ['.yarnrc.yml', 'holds secrets'],
    ['kubeconfig', 'holds secrets'],
    ['clusters/dev.kubeconfig', 'holds secrets'],
    ['terraform.tfstate', 'holds secrets'],
    ['infra/terraform.tfstate.backup', 'holds secrets'],
    ['prod.tfvars', 'holds secrets'],
    ['home/.config/gh/hosts.yml', 'holds secrets'],
  ])('names why %s holds secrets', (path, reason) => {
    expect(sensitivePathReason(path)).toContain(reason);
  });

  it.each([['src/env.ts'], ['environment.md'], ['.envelope'], ['docs/ssh.md'], ['README.md'], ['pem'], ['.']])(
    'returns null for %s',
    (path) => {
      expect(sensitivePathReason(path)).toBeNull();
    },
  );
});

describe('buildPathReason', () => {
  it.each([
    ['package.json', 'build or repository file'],
    ['packages/a/PACKAGE.JSON', 'build or repository file'],
    ['pnpm-lock.yaml', 'build or repository file'],
    ['.gitignore', 'build or repository file'],
    ['.github/workflows/ci.yml', "'.github'"],
    ['.git/hooks/pre-commit', "'.git'"],
    ['.husky/pre-push', "'.husky'"],
    ['.pnpmfile.cjs', 'build or repository file'],
    ['Makefile', 'build or repository file'],
    ['web/GNUmakefile', 'build or repository file'],
    ['.bashrc', 'build or repository file'],
    ['.zprofile', 'build or repository file'],
    ['Dockerfile.prod', 'build or repository file'],
    ['.vscode/tasks.json', "'.vscode'"],
    ['node_modules/.bin/tsc', "'node_modules'"],
  ])('names why %s is a build path', (path, reason) => {
    expect(buildPathReason(path)).toContain(reason);
  });

  it.each([['src/package.ts'], ['github/notes.md'], ['docs/package-json.md'], ['docs/make.md'], ['bashrc.md']])(
    'returns null for %s',
    (path) => {
      expect(buildPathReason(path)).toBeNull();
    },
  );

  it('returns null for a path the host allows, by name, path or root-anchored path', () => {
    expect(buildPathReason('web/Makefile', ['Makefile'])).toBeNull();
    expect(buildPathReason('.vscode/tasks.json', ['.vscode/tasks.json'])).toBeNull();
    expect(buildPathReason('package.json', ['/package.json'])).toBeNull();
    expect(buildPathReason('web/package.json', ['/package.json'])).toContain('build or repository file');
  });
});

describe('executablePathReason', () => {
  it.each([['run.sh'], ['bin/tool.EXE'], ['setup.ps1'], ['lib.so']])('refuses %s', (path) => {
    expect(executablePathReason(path)).toContain('executables or scripts');
  });

  it.each([['notes.md'], ['sh'], ['.sh.txt'], ['src/index.ts']])('returns null for %s', (path) => {
    expect(executablePathReason(path)).toBeNull();
  });
});

describe('isSkippedDirectory', () => {
  it('skips dependency, VCS and sensitive folders without regard to case', () => {
    expect(isSkippedDirectory('node_modules')).toBe(true);
    expect(isSkippedDirectory('.GIT')).toBe(true);
    expect(isSkippedDirectory('.ssh')).toBe(true);
    expect(isSkippedDirectory('src')).toBe(false);
  });
});
