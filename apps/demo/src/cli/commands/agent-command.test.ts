import { describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';

function capture() {
  const out = { stdout: '', stderr: '' };
  const io = {
    stdout: (text: string) => (out.stdout += text),
    stderr: (text: string) => (out.stderr += text),
    stdoutIsTTY: false,
    env: {},
  };
  return { out, io };
}

describe('addAgentCommand', () => {
  it('runs the agent conversation: exit 0, the transcript on stdout, nothing on stderr', async () => {
    const { out, io } = capture();
    expect(await runCli(['agent'], io)).toBe(0);
    expect(out.stderr).toBe('');
    expect(out.stdout).toContain('An agent on the Vercel AI SDK');
    expect(out.stdout).toContain('call-3  approval_pending → ok');
  });

  it('explains itself under --help and is listed in the root help', async () => {
    const help = capture();
    expect(await runCli(['agent', '--help'], help.io)).toBe(0);
    expect(help.out.stdout).toContain('tool-approval-request');
    const root = capture();
    expect(await runCli(['--help'], root.io)).toBe(0);
    expect(root.out.stdout).toMatch(/agent\s+run a scripted agent conversation/);
    expect(root.out.stdout).toContain('pnpm demo agent');
  });

  it('refuses an unexpected argument as a usage error', async () => {
    const { out, io } = capture();
    expect(await runCli(['agent', 'extra'], io)).toBe(2);
    expect(out.stderr).toMatch(/^error: /);
  });
});
