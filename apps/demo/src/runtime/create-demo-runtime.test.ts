import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApprovalVerdict, ToolContext, type ToolRegistry as ToolRegistryContract } from '@milpa/core';
import { SqliteStoreError, SqliteStores } from '@milpa/store-sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LogEntry } from '../logging/memory-logger.js';
import { DEMO_RATE_LIMIT, REVIEWER_SCOPE, createDemoRuntime, type DemoRuntime } from './create-demo-runtime.js';
import { describeDemoStores } from '../state/demo-stores.js';

describe('createDemoRuntime', () => {
  it('registers the nine demo tools through the plugin, then the three read-only built-in tools over the demo workspace', async () => {
    const { registry } = await createDemoRuntime();
    expect(registry.getToolDefinitions().map((definition) => definition.name)).toEqual([
      'list_notes',
      'get_note',
      'create_note',
      'delete_note',
      'lookup_crop',
      'publish_report',
      'send_digest',
      'request_verification',
      'resolve_verification',
      'code_search',
      'file_read',
      'project_info',
    ]);
  });

  it("gives each of the demo plugin's and built-in tools routing hints (the verification tools bring their own)", async () => {
    const { registry } = await createDemoRuntime();
    const hinted = registry
      .getToolDefinitions()
      .filter((definition) => (definition.routing?.intents.length ?? 0) > 0 && (definition.routing?.domains.length ?? 0) > 0)
      .map((definition) => definition.name);
    expect(hinted).toEqual([
      'list_notes',
      'get_note',
      'create_note',
      'delete_note',
      'lookup_crop',
      'publish_report',
      'send_digest',
      'code_search',
      'file_read',
      'project_info',
    ]);
  });

  it('routes a message to the tools it asks for when a small model has room for few', async () => {
    const { registry } = await createDemoRuntime();
    const turn = await registry.toolsFor(ToolContext.cli(), {
      provider: 'ollama',
      model: 'llama3.1:8b',
      message: 'How many weeks until the squash is ready?',
    });
    expect(turn.names).toContain('lookup_crop');
    expect(turn.names).not.toContain('publish_report');
    expect(turn.names.length).toBeLessThanOrEqual(5);
  });

  it('wires a rate limiter and a dispatcher, and no rule provider', async () => {
    const { registry } = await createDemoRuntime();
    expect(registry.hasRateLimiter()).toBe(true);
    expect(registry.hasDispatcher()).toBe(true);
    expect(registry.getPolicyGate().hasRuleProvider()).toBe(false);
  });

  it('trips the demo rate limit on the ninth read by one caller of one tool', async () => {
    const { registry } = await createDemoRuntime();
    const scraper = (): ToolContext => ToolContext.mcp('r', 'agent:scraper', ['notes:read']);
    for (let call = 0; call < (DEMO_RATE_LIMIT.maxTokens ?? 0); call += 1) {
      expect((await registry.call('list_notes', {}, scraper())).success).toBe(true);
    }
    const limited = await registry.call('list_notes', {}, scraper());
    expect(limited.getCode()).toBe('RATE_LIMITED');
    expect(limited.error).toBe("Rate limit exceeded for 'mcp:agent:scraper:list_notes': max 8 tokens per 60s.");
    // Another caller, or another tool, has a budget of its own.
    expect((await registry.call('list_notes', {}, ToolContext.mcp('r', 'agent:other', ['notes:read']))).success).toBe(true);
    expect((await registry.call('get_note', { id: 1 }, scraper())).success).toBe(true);
  });

  it('uses the registry defaults (100 tokens per minute) when given an empty rate limit', async () => {
    const { registry } = await createDemoRuntime({ rateLimit: {} });
    const results = [];
    for (let call = 0; call < 6; call += 1)
      results.push(await registry.call('list_notes', {}, ToolContext.mcp('r', 'agent:a', ['notes:read'])));
    expect(results.every((result) => result.success)).toBe(true);
  });

  it('streams every kept log line to onLog', async () => {
    const seen: LogEntry[] = [];
    const { registry } = await createDemoRuntime({ onLog: (entry) => seen.push(entry) });
    await registry.call('list_notes', {}, ToolContext.cli('r1'));
    expect(seen.map((entry) => entry.message)).toEqual([
      expect.stringMatching(/^\[ToolAudit\] r1 \| cli \| list_notes \| cli \| \d+ms \| OK/),
    ]);
  });

  it('renders cli results with the CliRenderer and other channels with the DefaultRenderer', async () => {
    const { registry, renderers } = await createDemoRuntime();
    const context = ToolContext.mcp('r1', 'agent:a', ['notes:read']);
    const result = await registry.call('get_note', { id: 2 }, context);
    expect(renderers.render(result, ToolContext.cli())).toContain('Note - Sow beans beside the maize\n========');
    expect(renderers.render(result, context)).toContain('- Title: Sow beans beside the maize');
  });

  it('colours cli output only when asked to', async () => {
    const plain = await createDemoRuntime();
    const colored = await createDemoRuntime({ color: true });
    const result = await plain.registry.call('delete_note', { id: 99 }, ToolContext.cli());
    expect(plain.renderers.render(result, ToolContext.cli())).not.toContain('\u001b[');
    expect(colored.renderers.render(result, ToolContext.cli())).toContain('\u001b[31m');
  });

  it('builds independent runtimes with the same starting data', async () => {
    const first = await createDemoRuntime();
    await first.registry.call('delete_note', { id: 2 }, ToolContext.cli().with({ runId: await first.registry.startRun() }));
    const second = await createDemoRuntime();
    expect(first.notes.size).toBe(4);
    expect(second.notes.size).toBe(5);
  });

  it('runs mutating calls without asking when given no approval gate: inspection shows no approve step to run', async () => {
    const { registry } = await createDemoRuntime();
    expect(registry.inspect('delete_note', ToolContext.cli())?.getStep('approve')).toMatchObject({ presence: 'skipped' });
  });

  it('asks approvalGate about every mutating call, and never about a read or the verification tools', async () => {
    const asked: string[] = [];
    const { registry, notes } = await createDemoRuntime({
      approvalGate: { check: (request) => (asked.push(request.toolName), ApprovalVerdict.deny('Not today.')) },
    });
    const cli = ToolContext.cli().with({ runId: await registry.startRun() });
    const refused = await registry.call('delete_note', { id: 2 }, cli);
    expect(refused.getCode()).toBe('APPROVAL_DENIED');
    expect(notes.find(2)).not.toBeNull();
    expect((await registry.call('list_notes', {}, cli)).success).toBe(true);
    expect((await registry.call('request_verification', { subject: 'report:q3' }, cli)).success).toBe(true);
    expect(asked).toEqual(['delete_note']);
  });

  it("holds a supervised principal's mutating call until someone else grants it, then runs it once", async () => {
    const { registry, notes } = await createDemoRuntime({ supervisedPrincipals: ['agent:assistant'] });
    const assistant = ToolContext.mcp('r1', 'agent:assistant', ['notes:write', REVIEWER_SCOPE]).with({ runId: await registry.startRun() });
    const held = await registry.call('delete_note', { id: 2 }, assistant);
    expect(held.getCode()).toBe('APPROVAL_PENDING');
    expect(held.error).toContain(
      `agent:assistant is supervised: someone else holding ${REVIEWER_SCOPE} must approve 'delete_note' before it runs.`,
    );
    const approvalId = (held.data as { approval_id: string }).approval_id;
    const selfGrant = await registry.call(
      'resolve_verification',
      { request_id: approvalId, decision: 'grant', principal: 'agent:assistant' },
      assistant,
    );
    expect(selfGrant.getCode()).toBe('FORBIDDEN');
    const ana = ToolContext.web('user:ana', [REVIEWER_SCOPE]);
    expect(
      (await registry.call('resolve_verification', { request_id: approvalId, decision: 'grant', principal: 'user:ana' }, ana)).success,
    ).toBe(true);
    expect((await registry.resume(approvalId, assistant)).success).toBe(true);
    expect(notes.find(2)).toBeNull();
    expect((await registry.resume(approvalId, assistant)).meta['approval_refusal']).toBe('used');
    // Everyone else runs without asking.
    const pruner = ToolContext.mcp('r2', 'agent:pruner', ['notes:write']).with({ runId: await registry.startRun() });
    expect((await registry.call('delete_note', { id: 3 }, pruner)).success).toBe(true);
  });

  it('has a plugin that registers on any registry implementing the core contract', async () => {
    const { provider } = await createDemoRuntime();
    const names: string[] = [];
    const bare: ToolRegistryContract = {
      register: (definition) => void names.push(definition.name),
      has: (name) => names.includes(name),
    };
    await provider.registerTools(bare);
    expect(names).toHaveLength(9);
    expect(provider.getPromptSections?.()).toEqual(
      expect.arrayContaining([expect.stringContaining('publish_report needs a granted verification')]),
    );
  });
});

describe('createDemoRuntime with stores', () => {
  let folder = '';
  let path = '';
  const opened: DemoRuntime[] = [];
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'milpa-demo-runtime-'));
    path = join(folder, 'state.db');
  });
  afterEach(() => {
    for (const demo of opened.splice(0)) demo.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** A runtime on the test's file with its own connection, as a separate process would have. */
  async function runtimeOnFile(options: Parameters<typeof createDemoRuntime>[0] = {}): Promise<DemoRuntime> {
    const demo = await createDemoRuntime({ ...options, stores: path });
    opened.push(demo);
    return demo;
  }

  it('takes every store the registry and the verifier use from the one SQLite file', async () => {
    const demo = await runtimeOnFile();
    expect(demo.stores === null ? null : describeDemoStores(demo.stores)).toBe(path);
    expect(demo.registry.getConfirmationStore()).toBe(demo.stores?.confirmation);
    expect(demo.registry.getHistoryStore()).toBe(demo.stores?.history);
    const request = await demo.registry.call('request_verification', { subject: 'report:q3', request_id: 'verif-file' }, ToolContext.cli());
    expect(request.success).toBe(true);
    expect(await demo.stores?.verification.get('verif-file')).toMatchObject({ id: 'verif-file', request: { subject: 'report:q3' } });
  });

  it('keeps its state in memory without stores', async () => {
    const demo = await createDemoRuntime();
    expect(demo.stores).toBeNull();
    demo.close();
    expect((await demo.registry.call('list_notes', {}, ToolContext.cli())).success).toBe(true);
  });

  it('closes the file it opened on close(): calls needing a store then fail closed', async () => {
    const demo = await runtimeOnFile();
    expect((await demo.registry.call('list_notes', {}, ToolContext.cli())).success).toBe(true);
    demo.close();
    demo.close();
    const refused = await demo.registry.call('list_notes', {}, ToolContext.cli());
    expect(refused.getCode()).toBe('STORE_UNAVAILABLE');
  });

  it('leaves stores it was given open on close()', async () => {
    const stores = SqliteStores.open(path);
    try {
      const demo = await createDemoRuntime({ stores });
      expect(demo.stores).toBe(stores);
      demo.close();
      expect((await demo.registry.call('list_notes', {}, ToolContext.cli())).success).toBe(true);
    } finally {
      stores.close();
    }
  });

  it('throws the store error for a path SQLite cannot open', async () => {
    await expect(createDemoRuntime({ stores: folder })).rejects.toBeInstanceOf(SqliteStoreError);
  });

  it('redeems a confirm token minted by another runtime on the file, once', async () => {
    const first = await runtimeOnFile();
    const runId = await first.registry.startRun();
    const ana = (): ToolContext => ToolContext.telegram(4242, 'tg:ana').with({ scopes: ['notes:write'], runId });
    const asked = await first.registry.call('delete_note', { id: 3 }, ana());
    const token = asked.getConfirmToken();
    expect(token).not.toBeNull();
    const second = await runtimeOnFile();
    const redeemed = await second.registry.call('delete_note', { id: 3 }, ana(), { confirmToken: token as string });
    expect(redeemed.success).toBe(true);
    expect(second.notes.find(3)).toBeNull();
    const third = await runtimeOnFile();
    expect((await third.registry.call('delete_note', { id: 3 }, ana(), { confirmToken: token as string })).error).toBe(
      'Invalid or expired confirmation token',
    );
    expect(third.notes.find(3)).not.toBeNull();
  });

  it('shares one rate budget between runtimes on the file', async () => {
    const scraper = (): ToolContext => ToolContext.mcp('r', 'agent:scraper', ['notes:read']);
    const [first, second] = [await runtimeOnFile(), await runtimeOnFile()];
    const budget = DEMO_RATE_LIMIT.maxTokens ?? 0;
    for (let call = 0; call < budget; call += 1) {
      expect((await (call % 2 === 0 ? first : second).registry.call('list_notes', {}, scraper())).success).toBe(true);
    }
    expect((await first.registry.call('list_notes', {}, scraper())).getCode()).toBe('RATE_LIMITED');
    expect((await second.registry.call('list_notes', {}, scraper())).getCode()).toBe('RATE_LIMITED');
  });

  it("keeps counting a run's deletions across runtimes, and refuses a run the file never opened", async () => {
    const first = await runtimeOnFile();
    const runId = await first.registry.startRun();
    const context = (run: string): ToolContext => ToolContext.cli().with({ runId: run });
    for (const id of [2, 3]) expect((await first.registry.call('delete_note', { id }, context(runId))).success).toBe(true);
    const second = await runtimeOnFile();
    expect((await second.registry.call('delete_note', { id: 5 }, context(runId))).success).toBe(true);
    const fourth = await second.registry.call('delete_note', { id: 4 }, context(runId));
    expect(fourth.meta).toMatchObject({ rule: 'notes.max_deletions_per_run', reason: 'too_many_deletions' });
    const unknown = await second.registry.call('delete_note', { id: 4 }, context('run_never_opened'));
    expect(unknown.meta).toMatchObject({ rule: 'notes.max_deletions_per_run', reason: 'history_incomplete' });
  });

  it('holds a call in one runtime, lets another grant it, and resumes it once from a third', async () => {
    const supervised = { supervisedPrincipals: ['agent:assistant'] };
    const first = await runtimeOnFile(supervised);
    const runId = await first.registry.startRun();
    const assistant = (): ToolContext => ToolContext.mcp('r1', 'agent:assistant', ['notes:write']).with({ runId });
    const held = await first.registry.call('delete_note', { id: 2 }, assistant());
    expect(held.getCode()).toBe('APPROVAL_PENDING');
    const approvalId = (held.data as { approval_id: string }).approval_id;
    const granting = await runtimeOnFile(supervised);
    const grant = await granting.registry.call(
      'resolve_verification',
      { request_id: approvalId, decision: 'grant', principal: 'user:ana' },
      ToolContext.web('user:ana', [REVIEWER_SCOPE]),
    );
    expect(grant.success).toBe(true);
    const resuming = await runtimeOnFile(supervised);
    const resumed = await resuming.registry.call('delete_note', { id: 2 }, assistant(), { approvalId: approvalId });
    expect(resumed.success).toBe(true);
    expect(resuming.notes.find(2)).toBeNull();
    const again = await (await runtimeOnFile(supervised)).registry.call('delete_note', { id: 2 }, assistant(), { approvalId: approvalId });
    expect(again.meta['approval_refusal']).toBe('used');
  });

  it('answers a retry with the same idempotency key from another runtime without running it again', async () => {
    const first = await runtimeOnFile();
    const created = await first.registry.call('create_note', { title: 'Mulch the squash' }, ToolContext.cli(), {
      idempotencyKey: 'mulch-1',
    });
    expect(created.success).toBe(true);
    const second = await runtimeOnFile();
    const before = second.notes.size;
    const retry = await second.registry.call('create_note', { title: 'Mulch the squash' }, ToolContext.cli(), {
      idempotencyKey: 'mulch-1',
    });
    expect(retry.meta['idempotent_replay']).toBe(true);
    expect(retry.data).toEqual(created.data);
    expect(second.notes.size).toBe(before);
  });
});
