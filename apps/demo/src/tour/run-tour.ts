import { ToolContext } from '@milpa/core';
import type { TidiedField } from '@milpa/tool-runtime';
import type { ProviderName } from '@milpa/tool-runtime/routing';
import { formatPlan } from '../output/format-plan.js';
import { formatTurnOffers, type TurnOffer } from '../output/format-turn-offers.js';
import { createTerminalStyle } from '../output/terminal-style.js';
import { DEMO_RATE_LIMIT, REVIEWER_SCOPE, createDemoRuntime, type DemoRuntime } from '../runtime/create-demo-runtime.js';
import { ReportDesk } from '../plugin/report-desk.js';
import { MAX_DELETIONS_PER_RUN } from '../rules/max-deletions-per-run-rule.js';
import { demoStateDirectory } from '../state/demo-state-path.js';
import { openTourState, type TourState } from './tour-state.js';
import { TourWriter, describeCaller } from './tour-writer.js';
import { booleanField, numberField, stringField } from './data-field.js';
import { describeNotes, indent, times } from './tour-phrases.js';
import { writeTourIntro } from './write-tour-intro.js';
import { writeTourNextSteps } from './write-tour-next-steps.js';
import { stableAuditLine } from './stable-audit-line.js';

export { stableAuditLine } from './stable-audit-line.js';
import { approvalIdOf, createTourStage, maskApproval, openRun } from './tour-stage.js';

/** Options of {@link runTour}. */
export interface TourOptions {
  /** Where the transcript goes. */
  readonly write: (text: string) => void;
  /** Colour the transcript with ANSI codes; default false. */
  readonly color?: boolean;
  /**
   * `--db`: the SQLite file to keep the tour's state in, kept when the tour ends; it must not exist
   * yet or be empty. Default: a fresh file in `stateDirectory`, deleted when the tour ends.
   */
  readonly database?: string;
  /** The folder of the tour's fresh state file; default `MILPA_DEMO_STATE_DIR`, else `os.tmpdir()/milpa-demo`. */
  readonly stateDirectory?: string;
}

/** The user message scene 15 routes: it asks for two tools and names one of them. */
const ROUTED_MESSAGE = 'Delete the note about maize, then email me a digest with send_digest';

/** The two models scene 15 compares: a hosted one on the full profile and a small local one on the minimal profile. */
const ROUTED_MODELS: readonly { provider: ProviderName; model: string }[] = [
  { provider: 'openai', model: 'gpt-4o-mini' },
  { provider: 'ollama', model: 'llama3.1:8b' },
];

/**
 * The guided tour: a fresh demo runtime, then one short scene per property of the pipeline —
 * success, validation, require_auth, scopes, telegram confirmation, plan mode, the cache and the
 * denied caller it never sees, a veto, the rate limit, request → resolve verification with the
 * policy dividend, a redacted secret, the audit trail, an inspection plan, and the invocation rules
 * over a run (a fourth deletion refused, a note outside the caller's folder refused, an unknown run
 * refused as history_incomplete), one message routed for two models by `registry.toolsFor()`, a
 * call whose arguments are tidied, the read-only built-in tools over a workspace, and a supervised
 * agent's calls held for a person's approval (self-approval refused, resumed once, the approver's
 * changes applied). Every call is real; request ids are fixed and volatile values
 * (confirm tokens, approval ids, run ids) are masked, so the transcript is the same on every run.
 * The state (tokens, budgets, verifications, held calls, runs) lives in a SQLite file that starts
 * empty: a fresh one per tour, deleted at the end, or the new or empty file `database` names,
 * kept. Nothing touches the network.
 *
 * @throws DemoUsageError `STATE_UNAVAILABLE` when `database` is not empty or cannot hold the state.
 * @example
 * await runTour({ write: (text) => process.stdout.write(text), color: process.stdout.isTTY });
 */
export async function runTour(options: TourOptions): Promise<void> {
  const state = openTourState({
    directory: options.stateDirectory ?? demoStateDirectory(process.env),
    ...(options.database === undefined ? {} : { database: options.database }),
  });
  try {
    const demo = await createDemoRuntime({ color: options.color ?? false, supervisedPrincipals: [SUPERVISED_AGENT], stores: state.stores });
    await playTour(options, demo, state);
  } finally {
    state.close();
  }
}

/** The scenes, on a runtime over the tour's empty state. */
async function playTour(options: TourOptions, demo: DemoRuntime, state: TourState): Promise<void> {
  const style = createTerminalStyle(options.color ?? false);
  const out = new TourWriter(options.write, style, demo.renderers);
  const { registry, notes, almanac, cache, guard } = demo;

  const { as, run } = createTourStage(out, registry);

  writeTourIntro(out, demo, state, SUPERVISED_AGENT);

  out.section(1, 'A call from the terminal', 'The local operator (cli: principal cli, scopes *) lists the notes, asking for 50 per page.');
  await run('list_notes', { per_page: 50 }, as.cli());
  out.note('per_page 50 was clamped to 3 before validation: clamps coerce, schema bounds reject.');

  out.section(2, 'Validation names the field', 'A note without its required title never reaches the handler.');
  const invalid = await run('create_note', { body: 'Rotate the plot next year' }, as.cli());
  for (const error of (invalid.meta['errors'] as readonly { path: string; message: string }[] | undefined) ?? []) {
    out.note(`meta.errors → field '${error.path}': ${error.message}`);
  }

  out.section(3, 'mcp requires a principal', 'An MCP caller that never authenticated asks for the notes.');
  await run('list_notes', {}, as.anonymousMcp());

  out.section(4, 'A scope denial names the missing scope', 'agent:reader may read notes, not delete them.');
  await run('delete_note', { id: 3 }, as.mcp('agent:reader', ['notes:read', 'almanac:read']));

  out.section(
    5,
    'Telegram confirms mutating tools',
    "The telegram channel policy asks before any mutating tool runs, even one that doesn't ask itself.",
  );
  const chat = await openRun(registry, out, "ana's chat");
  out.line(`tg:ana's chat is a run, opened with registry.startRun(): deletions are counted per run (scene 14).`);
  const anaAsks = as.telegram('tg:ana', chat);
  const ask = await run('delete_note', { id: 3 }, anaAsks, (result) => [
    [result.getConfirmationRequest()?.token ?? null, 'confirm_token'],
    [result.getConfirmationRequest()?.expiresAt ?? null, 'expires_at'],
  ]);
  const token = ask.getConfirmationRequest()?.token ?? '';
  await run('delete_note', { id: 3, confirm_token: token }, as.telegram('tg:eve'));
  out.note('The token is bound to the principal and channel that asked: tg:eve cannot redeem it.');
  await run('delete_note', { id: 3, confirm_token: token }, as.telegram('tg:ana', chat));
  out.note(`tg:ana's replay ran the first call's arguments. Notes left: ${notes.size}.`);

  out.section(6, 'Plan mode: checked, not executed', 'The same pipeline runs up to the point of execution, then returns the plan.');
  await run('create_note', { title: 'Rotate the plot' }, as.cli().asPlan());
  out.note(`Validated, authorized and rate-limited for real; nothing was created. Notes: still ${notes.size}.`);

  out.section(7, 'A cache answers repeat lookups', 'A tool.executing listener short-circuits a lookup it has seen before.');
  await run('lookup_crop', { name: 'maize' }, as.mcp('agent:reader', ['notes:read', 'almanac:read']));
  await run('lookup_crop', { name: 'maize' }, as.mcp('agent:reader', ['notes:read', 'almanac:read']));
  out.note(
    `The almanac was consulted ${times(almanac.lookups)}; ` +
      `the cache listener ran ${times(cache.invocations)} and answered ${times(cache.hits)}.`,
  );
  const seenBefore = cache.invocations;
  await run('lookup_crop', { name: 'maize' }, as.mcp('agent:guest', ['notes:read']));
  out.note(
    `Refused before tool.executing: the cache listener has still run ${times(cache.invocations)} (${times(seenBefore)} before). ` +
      'A cache can never stand in for a refused call.',
  );

  out.section(8, 'A listener vetoes', 'A guard on tool.executing protects pinned notes, even from the all-powerful cli.');
  await run('delete_note', { id: 1 }, as.cli(await openRun(registry, out, 'operator session')));
  out.note(`The handler never ran; vetoes so far: ${guard.vetoes}. Note 1 is still there: ${notes.find(1) === null ? 'no' : 'yes'}.`);

  out.section(
    9,
    'The rate limit trips',
    `Budget: ${DEMO_RATE_LIMIT.maxTokens} tokens per ${DEMO_RATE_LIMIT.windowSeconds}s per channel:principal:tool; ` +
      `a read costs ${DEMO_RATE_LIMIT.cost}, a mutating call ${DEMO_RATE_LIMIT.mutatingCost}.`,
  );
  const budget = DEMO_RATE_LIMIT.maxTokens ?? 5;
  const outcomes: string[] = [];
  for (let call = 1; call <= budget; call += 1) {
    const result = await registry.call('list_notes', {}, as.mcp('agent:scraper', ['notes:read']));
    outcomes.push(result.success ? '✓' : '✗');
  }
  out.line(`agent:scraper lists the notes ${budget} times: ${outcomes.join(' ')}`);
  await run('list_notes', {}, as.mcp('agent:scraper', ['notes:read']));

  out.section(
    10,
    'Human verification gates a publication',
    'publish_report needs a granted verification; the worker may ask for one, only a reviewer may grant it.',
  );
  const worker = (): ToolContext => as.mcp('agent:worker', ['reports:publish']);
  const subject = ReportDesk.subjectOf('q3-harvest');
  await run('publish_report', { report_id: 'q3-harvest' }, worker());
  await run('request_verification', { subject, request_id: 'verif-q3' }, worker());
  out.note('The policy dividend: request_verification is open, resolve_verification needs a scope the worker lacks.');
  await run('resolve_verification', { request_id: 'verif-q3', decision: 'grant', principal: 'agent:worker' }, worker());
  await run(
    'resolve_verification',
    { request_id: 'verif-q3', decision: 'grant', principal: 'agent:reviewer' },
    as.mcp('agent:reviewer', [REVIEWER_SCOPE]),
  );
  out.note('verification.granted reached the report desk, a plugin listening on the same dispatcher.');
  await run('publish_report', { report_id: 'q3-harvest' }, worker());

  out.section(
    11,
    'A secret stays out of the logs',
    'send_digest takes an API key; the (offline) mail provider sees it, the audit trail does not.',
  );
  await run('send_digest', { to: 'ana@example.com', api_key: 'sk-demo-7f3a9c21' }, as.cli());

  out.section(12, 'The audit trail', 'Every call above, refusals included, left one line (durations shown as …ms):');
  for (const line of demo.logger.auditLines()) out.raw(`    ${style.dim(stableAuditLine(line))}\n`);
  const served = demo.logger
    .entries()
    .map((entry) => entry.context['audit'] as { request_id?: string; cache_served?: boolean } | undefined)
    .filter((record) => record?.cache_served === true)
    .map((record) => record?.request_id);
  out.note(
    `The api_key is ***REDACTED***. Each line also hands the logger a structured record; ${served.join(', ')}'s says cache_served: true.`,
  );

  out.section(
    13,
    'Inspect before you call',
    'The InvocationPlan of delete_note for an anonymous mcp caller: what would run, and why. Nothing executes.',
  );
  const plan = registry.inspect('delete_note', ToolContext.mcp('tour-inspect', null, []));
  if (plan !== null) out.raw(indent(formatPlan(plan, style, { sources: false })));
  out.note('With every source: pnpm demo inspect delete_note --channel mcp   (add --json for the whole plan)');

  out.section(
    14,
    'Invocation rules judge the whole run',
    "After authorization, host rules see each call's target and its run's history: " +
      'notes.own_folder keeps a caller to its folder, ' +
      `notes.max_deletions_per_run allows ${MAX_DELETIONS_PER_RUN} deletions per run.`,
  );
  const added: number[] = [];
  for (const title of ['Pull the volunteer squash', 'Thin the bean rows']) {
    const created = await registry.call('create_note', { title }, as.cli());
    added.push(Number((created.data as { id?: unknown } | null)?.id));
  }
  const [sixth = 6, seventh = 7] = added;
  out.line(`The operator has added notes #${sixth} and #${seventh} to the field folder. agent:pruner works in that folder.`);
  const pruning = await openRun(registry, out, 'pruning run');
  out.line(`registry.startRun() opened ${pruning} with a complete, empty history; agent:pruner deletes in it:`);
  const pruner = (runId: string): ToolContext => as.mcp('agent:pruner', ['notes:read', 'notes:write']).with({ runId });
  const deletions: string[] = [];
  for (const id of [2, 5, sixth]) {
    const result = await registry.call('delete_note', { id }, pruner(pruning));
    deletions.push(`#${id} ${result.success ? '✓' : '✗'}`);
  }
  out.line(`Deletions ${deletions.join(', ')}; then a fourth:`);
  const fourth = await run('delete_note', { id: seventh }, pruner(pruning));
  out.note(
    `meta.rule → ${String(fourth.meta['rule'])}, meta.reason → ${String(fourth.meta['reason'])}. ` +
      `Note ${seventh} is still there: ${notes.find(seventh) === null ? 'no' : 'yes'}.`,
  );
  const history = await demo.history.load(pruning);
  const steps = (history?.observations ?? []).map(
    (observation) => `${observation.outcome} ${observation.target?.kind ?? ''}:${observation.target?.id ?? ''}`,
  );
  out.note(`The run's history, which the rule counted: ${steps.join(', ')} (complete: ${history?.complete === true ? 'yes' : 'no'}).`);
  await run('get_note', { id: 4 }, pruner(pruning));
  out.note(`Note 4 is kept in the granary folder, not agent:pruner's: meta.reason → outside_folder, whatever the run.`);
  await run('delete_note', { id: seventh }, pruner('run-never-opened'));
  out.note('A run the history store never opened cannot prove its count, so the rule refuses: history_incomplete (a call in no run too).');

  out.section(
    15,
    'One message, two models',
    "registry.toolsFor() offers a model only the tools the caller may call, routed by the user's message, " +
      "capped by the model's budget, fitted to its profile.",
  );
  out.line(`The message: "${ROUTED_MESSAGE}"`);
  const everyone = as.cli();
  out.line(
    `The caller: ${describeCaller(everyone)}, who may call all ${registry.getToolDefinitions().length} tools. Two models, side by side:`,
  );
  const offers: TurnOffer[] = [];
  for (const { provider, model } of ROUTED_MODELS) {
    offers.push({ label: `${provider} / ${model}`, turn: await registry.toolsFor(everyone, { provider, model, message: ROUTED_MESSAGE }) });
  }
  out.raw(
    formatTurnOffers(
      offers,
      registry.getToolDefinitions().map((definition) => definition.name),
      { indent: 4, header: style.bold },
    ),
  );
  const pinned = [...new Set(offers.flatMap(({ turn }) => turn.pinned))];
  const pinnedNote =
    pinned.length > 1
      ? `${pinned.join(', ')} are pinned: the message names them, so they take slots before any ranked tool.`
      : `${pinned.length === 0 ? 'Nothing' : pinned.join(', ')} is pinned: the message names it, so it takes a slot before any ` +
        'ranked tool.';
  out.note(`${pinnedNote} The rest are ranked by routing hints (intents, domains, tags, examples).`);
  for (const { label, turn } of offers) {
    out.note(`${label} leaves out ${turn.excluded.length === 0 ? 'nothing' : turn.excluded.join(', ')}.`);
  }
  const readerTurn = await registry.toolsFor(as.mcp('agent:reader', ['notes:read', 'almanac:read']), {
    provider: 'ollama',
    model: 'llama3.1:8b',
    message: ROUTED_MESSAGE,
  });
  out.note(
    `For agent:reader (notes:read almanac:read) the same message offers ollama only ${readerTurn.names.join(', ')}: ` +
      'routing starts from what the caller may call.',
  );

  out.section(
    16,
    'Tidying what a model sent',
    'This registry runs with tidyArguments: true. ' +
      'A model counting from zero asks for page "0", leaves per_page blank and sends "*" for any tag:',
  );
  const tidied = await run('list_notes', { page: '0', per_page: ' ', tag: '*' }, as.mcp('agent:assistant', ['notes:read']));
  const changes = (tidied.meta['tidied'] as readonly TidiedField[] | undefined) ?? [];
  out.note(`meta.tidied → ${JSON.stringify(changes)}`);
  out.note(
    'Without tidying, page "0" fails validation and tag "*" would quietly match no note. Each change names the field, never the value.',
  );

  out.mask(demo.workspaceRoot, 'workspace');
  out.section(
    17,
    'Built-in tools over a workspace',
    'builtinTools({ workspaceRoot }) added code_search, file_read and project_info (read-only, scope workspace:read) ' +
      `over a small farm project in ${demo.workspaceRoot}.`,
  );
  const coder = () => as.mcp('agent:coder', ['workspace:read']);
  const firstPage = await run('code_search', { pattern: 'water', limit: 3 }, coder());
  const searchOffset = numberField(firstPage.data, 'next_offset');
  out.note(
    `truncated → ${String(booleanField(firstPage.data, 'truncated'))}, next_offset → ${String(searchOffset)}: ` +
      'the model asks for the next page.',
  );
  await run('code_search', { pattern: 'water', limit: 3, offset: searchOffset ?? 0 }, coder());
  const firstLines = await run('file_read', { path: 'notes/field-log.md', offset: 1, limit: 4, line_numbers: true }, coder());
  const readOffset = numberField(firstLines.data, 'next_offset');
  out.note(`next_offset → ${String(readOffset)}: file_read pages a file by lines, so a long file never floods the model.`);
  await run('file_read', { path: 'notes/field-log.md', offset: readOffset ?? 1, limit: 4, line_numbers: true }, coder());
  await run('file_read', { path: '.env' }, coder());
  await run('file_read', { path: '../../etc/passwd' }, coder());
  await run('code_search', { pattern: 'MAIL_API_KEY' }, coder());
  out.note(
    '.env holds that key, but search skips secret files and reading one is refused, ' +
      'as is any path that leaves the workspace, symlinks included.',
  );

  out.section(
    18,
    "An agent's delete is held for a person",
    `${SUPERVISED_AGENT} is supervised: ` +
      'this runtime holds its mutating calls with verifierApprovalGate(verifier) until someone else approves them.',
  );
  const task = await openRun(registry, out, `${SUPERVISED_AGENT}'s task`);
  const assistant = (): ToolContext => as.mcp(SUPERVISED_AGENT, ['notes:read', 'notes:write', REVIEWER_SCOPE]).with({ runId: task });
  const approver = (): ToolContext => as.web(APPROVER, [REVIEWER_SCOPE]);
  out.line(`The notes now: ${describeNotes(notes)}. ${SUPERVISED_AGENT} works in ${task}, a run of its own.`);
  const deletion = approvalIdOf(await run('delete_note', { id: seventh }, assistant(), maskApproval('delete approval')));
  out.note(
    `Nothing ran: note ${seventh} is still there: ${notes.find(seventh) === null ? 'no' : 'yes'}. ` +
      `The held call is bound to the tool, its arguments, ${SUPERVISED_AGENT}, mcp and the run.`,
  );
  await run('resolve_verification', { request_id: deletion, decision: 'grant', principal: SUPERVISED_AGENT }, assistant());
  out.note(`${SUPERVISED_AGENT} holds ${REVIEWER_SCOPE}, and still may not approve its own call.`);
  await run(
    'resolve_verification',
    { request_id: deletion, decision: 'grant', principal: APPROVER, reason: 'the beans are thinned already' },
    approver(),
  );
  await run('delete_note', { id: seventh, approval_id: deletion }, assistant());
  out.note(
    'The agent called again with the approval_id: authorization and the invocation rules ran again, then the handler, once. ' +
      `The notes now: ${describeNotes(notes)}.`,
  );
  const again = assistant();
  out.resume(deletion, again);
  const replayed = await registry.resume(deletion, again);
  out.result(replayed, again);
  out.note(
    `meta.approval_refusal → ${String(replayed.meta['approval_refusal'])}: an approval runs its call once. ` +
      `Notes left: still ${notes.size}.`,
  );

  out.section(
    19,
    'The approver edits the arguments',
    'A grant may replace fields the tool declares (changes); they are validated again, and the call runs with what was approved.',
  );
  const asked = { title: 'Pull up all the squash', tags: ['squash'] };
  const creation = approvalIdOf(await run('create_note', asked, assistant(), maskApproval('create approval')));
  await run(
    'resolve_verification',
    { request_id: creation, decision: 'grant', principal: APPROVER, changes: { title: 'Pull up only the squash with mildew' } },
    approver(),
  );
  const widened = await run('create_note', { ...asked, title: 'Pull up all the squash and the beans', approval_id: creation }, assistant());
  out.note(
    `meta.approval_refusal → ${String(widened.meta['approval_refusal'])}: ` +
      'a resume may present the arguments first asked for or the approved ones, nothing else. Nothing ran; the call is still held.',
  );
  const resumer = assistant();
  out.resume(creation, resumer);
  const created = await registry.resume(creation, resumer);
  out.result(created, resumer);
  const createdTitle = stringField(created.data, 'title');
  out.note(
    `Note #${String(numberField(created.data, 'id'))} was saved as ${JSON.stringify(createdTitle)}, ` +
      `the approved title, not ${JSON.stringify(asked.title)}.`,
  );

  writeTourNextSteps(out);
}

/** The tour's supervised agent: every mutating call it makes waits for a person. */
const SUPERVISED_AGENT = 'agent:assistant';

/** The person who approves the supervised agent's calls. */
const APPROVER = 'user:ana';
