import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

async function run(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), stdoutIsTTY: false, env: {} });
  return { code, stdout, stderr };
}

describe('runCli', () => {
  describe('call --trace', () => {
    it("prints the call's execute_tool span after the result", async () => {
      const result = await run('call', 'list_notes', '--args', '{}', '--request-id', 'req-trace-1', '--trace');
      expect(result.code).toBe(0);
      const [rendered = '', trace = ''] = result.stdout.split(/\n(?=trace [0-9a-f]{32}\n)/);
      expect(rendered).toContain('Plant the milpa');
      expect(trace).toMatch(/^trace [0-9a-f]{32}\n└─ execute_tool list_notes {2}\d+\.\d+ ms {2}INTERNAL {2}status UNSET\n/);
      expect(trace).toContain('gen_ai.operation.name = execute_tool\n');
      expect(trace).toContain('gen_ai.tool.call.id = req-trace-1\n');
      expect(trace).toContain('milpa.channel = cli\n');
      expect(trace).toContain('milpa.outcome = executed\n');
      expect(trace).toContain('milpa.cache.hit = false\n');
    });

    it('shows a refusal as an ERROR span with its refusal event', async () => {
      const result = await run('call', 'delete_note', '--args', '{"id":2}', '--channel', 'web', '--actor', 'user:1', '--trace');
      expect(result.code).toBe(1);
      expect(result.stdout).toContain('└─ execute_tool delete_note');
      expect(result.stdout).toContain('status ERROR (FORBIDDEN)');
      expect(result.stdout).toMatch(/event milpa\.refused at \+\d+\.\d+ ms\n +error\.type = FORBIDDEN\n +milpa\.outcome = auth_denied\n/);
    });

    it('keeps standard output one JSON document with --json and prints the trace on stderr', async () => {
      const result = await run('call', 'list_notes', '--args', '{}', '--json', '--trace');
      expect(JSON.parse(result.stdout)).toMatchObject({ success: true });
      expect(result.stderr).toContain('└─ execute_tool list_notes');
    });

    it('prints no trace without --trace', async () => {
      const result = await run('call', 'list_notes', '--args', '{}');
      expect(result.stdout).not.toContain('execute_tool');
    });
  });
});
