import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApprovalConsole, tokenAuthentication } from '@milpa/console';
import { ToolContext, type ApprovalGate, type ToolResult } from '@milpa/core';
import { SchemaValidator } from '@milpa/tool-runtime';
import { verifierApprovalGate } from '@milpa/verification';
import type { CliIo } from '../cli/cli-io.js';
import { DemoUsageError } from '../cli/demo-usage-error.js';
import { createDemoRuntime, SUPERVISED_AGENT } from '../runtime/create-demo-runtime.js';

/** Options of {@link serveDemoConsole}. */
export interface ServeDemoConsoleOptions {
  /** The port (0: any free port). */
  readonly port: number;
  /** The interface to bind; default `127.0.0.1`. */
  readonly host?: string;
  /** Resolves when the console should stop; default on SIGINT or SIGTERM. */
  readonly stopSignal?: Promise<void>;
  /** Milliseconds between the scripted agent's attempts to resume its held calls; default 1000. */
  readonly resumeEveryMs?: number;
  /** Called once the console listens, with its address (tests read it here). */
  readonly onListening?: (url: string, tokens: Readonly<Record<string, string>>) => void;
}

/** The scripted agent's calls: each mutating one waits for a person in the console. */
const SCRIPT: readonly { readonly tool: string; readonly args: Record<string, unknown> }[] = [
  { tool: 'list_notes', args: {} },
  { tool: 'create_note', args: { title: 'Order seed garlic', body: 'Two kilos, before the first frost.', tags: ['garlic'] } },
  { tool: 'delete_note', args: { id: 3 } },
  { tool: 'create_note', args: { title: 'Mend the <fence> by the creek', body: 'Markup in an argument is shown as text.' } },
];

function untilInterrupted(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

function newToken(): string {
  return randomBytes(18).toString('base64url');
}

function describe(result: ToolResult): string {
  return result.success ? `ran: ${result.message ?? 'ok'}` : `${result.getCode() ?? 'refused'}: ${result.error ?? result.message ?? ''}`;
}

/**
 * `pnpm demo console`: the demo runtime with an approvals console on `host:port`. A scripted agent
 * (`agent:assistant`) makes a few calls in a run of its own; every mutating one is held for a
 * person (`delete_note` needs two), and the agent resumes each as soon as it is decided. Prints
 * the address and the demo approvers' tokens, and serves until interrupted.
 *
 * @example
 * await serveDemoConsole({ port: 4000 }, io); // open http://127.0.0.1:4000/ and sign in with a printed token
 */
export async function serveDemoConsole(options: ServeDemoConsoleOptions, io: CliIo): Promise<void> {
  let gate: ApprovalGate | null = null;
  // The verifier lives inside the runtime, so the gate over it is made once the runtime exists.
  const deferredGate: ApprovalGate = {
    check: (request) => gate!.check(request),
    getResolution: (approval) => gate!.getResolution!(approval),
  };
  const demo = await createDemoRuntime({ approvalGate: deferredGate });
  gate = verifierApprovalGate(demo.verifier, { policy: (request) => (request.toolName === 'delete_note' ? 'dual' : 'single') });
  const tokens = { 'user:ana': newToken(), 'user:luis': newToken(), [SUPERVISED_AGENT]: newToken() };
  const approvals = createApprovalConsole({
    verifier: demo.verifier,
    dispatcher: demo.dispatcher,
    history: demo.history,
    approvals: demo.approvals,
    tools: demo.registry,
    validator: new SchemaValidator(),
    title: 'Milpa demo approvals',
    ...tokenAuthentication({ tokens: Object.fromEntries(Object.entries(tokens).map(([principal, token]) => [token, principal])) }),
  });
  const server = createServer(approvals);
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => resolve());
    });
  } catch (error) {
    await demo.close();
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      throw new DemoUsageError(
        `port ${options.port} is already in use`,
        'choose another with --port, or 0 for any free port',
        'INVALID_OPTION',
      );
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${host}:${port}/`;
  io.stdout(`Approvals console: ${url}\n`);
  io.stdout('Sign in with one of these demo tokens (new on every start):\n');
  for (const [principal, token] of Object.entries(tokens)) {
    io.stdout(
      `  ${principal.padEnd(16)} ${token}${principal === SUPERVISED_AGENT ? '   (the requester: its own approvals are refused)' : ''}\n`,
    );
  }
  options.onListening?.(url, tokens);

  const runId = await demo.registry.startRun();
  const agent = new ToolContext({
    principal: SUPERVISED_AGENT,
    channel: 'mcp',
    scopes: ['notes:read', 'notes:write', 'reports:publish'],
    runId,
  });
  const waiting = new Map<string, string>();
  for (const step of SCRIPT) {
    const result = await demo.registry.call(step.tool, step.args, agent);
    const pending = result.getPendingApproval();
    if (pending !== null) {
      const { approvalId } = pending;
      waiting.set(approvalId, step.tool);
      io.stdout(`${SUPERVISED_AGENT} called ${step.tool}: waiting for approval (${approvalId}).\n`);
    } else {
      io.stdout(`${SUPERVISED_AGENT} called ${step.tool}: ${describe(result)}\n`);
    }
  }
  const timer = setInterval(() => {
    void (async () => {
      for (const [approvalId, tool] of [...waiting]) {
        // Resume only once people have decided: every resume is a call, and spends rate budget.
        const record = await demo.verifier.store.get(approvalId);
        const expired = record?.expiresAt != null && record.expiresAt.getTime() < Date.now();
        if (record !== null && record.result === null && !expired) continue;
        const result = await demo.registry.resume(approvalId, agent);
        if (result.getPendingApproval() !== null) continue;
        waiting.delete(approvalId);
        io.stdout(`${SUPERVISED_AGENT} resumed ${tool}: ${describe(result)}\n`);
      }
    })();
  }, options.resumeEveryMs ?? 1000);
  io.stdout('Press Ctrl+C to stop.\n');
  try {
    await (options.stopSignal ?? untilInterrupted());
  } finally {
    clearInterval(timer);
    approvals.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await demo.close();
  }
}
