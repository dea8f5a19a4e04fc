// The committed launcher package managers link as `milpa-gateway` (bin/milpa-gateway.js): it must say
// how to build when dist/ is missing, and hand over to the built command, its arguments and exit code
// included, when it is there. Run in a copy of the package layout, so the real dist/ is left alone.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const LAUNCHER = fileURLToPath(new URL('../bin/milpa-gateway.js', import.meta.url));

/** A temporary package folder holding the launcher in bin/ and, when given, a dist/cli.js. */
function packageWith(builtCommand?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'milpa-gateway-launcher-'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(LAUNCHER, join(dir, 'bin', 'milpa-gateway.js'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  if (builtCommand !== undefined) {
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'cli.js'), builtCommand);
  }
  return dir;
}

function launch(dir: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(dir, 'bin', 'milpa-gateway.js'), ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the milpa-gateway launcher', () => {
  it('exits 1 with one line saying to build when dist/cli.js is missing', () => {
    const { status, stdout, stderr } = launch(packageWith(), ['--config', 'gateway.json']);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('dist/cli.js is missing');
    expect(stderr).toContain('pnpm --filter @milpa/gateway run build');
  });

  it('runs the built command with the arguments and exit code it was given when dist/cli.js exists', () => {
    const built = 'process.stdout.write(JSON.stringify(process.argv.slice(2)));\nprocess.exitCode = 7;\n';
    const { status, stdout, stderr } = launch(packageWith(built), ['--config', 'gateway.json', '--check']);
    expect(stderr).toBe('');
    expect(JSON.parse(stdout)).toEqual(['--config', 'gateway.json', '--check']);
    expect(status).toBe(7);
  });
});
