import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { runTour, stableAuditLine } from './run-tour.js';

async function transcript(color = false): Promise<string> {
  let text = '';
  await runTour({ write: (chunk) => (text += chunk), color });
  return text;
}

/** The part of the transcript from the heading `from` up to (not including) `to`. */
function sceneOf(text: string, from: string, to: string): string {
  expect(text).toContain(from);
  return text.slice(text.indexOf(from), text.indexOf(to));
}

function expectAll(text: string, expected: readonly string[]): void {
  for (const line of expected) expect(text).toContain(line);
}

describe('runTour', () => {
  it('writes the same transcript on every run', async () => {
    const [first, second] = [await transcript(), await transcript()];
    expect(first).toBe(second);
    expect(first).not.toMatch(/[0-9a-f]{32}/); // no generated request id or confirm token
    expect(first).not.toMatch(/\d{4}-\d{2}-\d{2}T/); // no timestamp
    expect(first).not.toMatch(/\| \d+ms \|/); // no duration
  });

  it('shows every moment of the pipeline with its exact message', async () => {
    const text = await transcript();
    for (const expected of [
      'Page 1/2 (5 total items)',
      '✗ Error: Missing required field: title',
      "meta.errors → field 'title': Missing required field: title",
      "Error: channel 'mcp' requires an authenticated principal (require_auth) — none provided.",
      "Error: Missing required scope for tool 'delete_note'. Need one of: notes:write — context has: notes:read, almanac:read.",
      'Confirmation required: delete_note(id=3)',
      'Error: Invalid or expired confirmation token',
      'Note #3 deleted',
      "PLAN MODE: 'create_note' was checked but not executed",
      'Almanac entry for maize (served from cache)',
      'The almanac was consulted once; the cache listener ran twice and answered once.',
      'the cache listener has still run twice (twice before)',
      'Tool execution vetoed by an event listener',
      "tour-10's says cache_served: true",
      "Error: Rate limit exceeded for 'mcp:agent:scraper:list_notes': max 8 tokens per 60s.",
      "Error: Missing required scope for tool 'resolve_verification'. Need one of: verification:resolve — context has: reports:publish.",
      "Verification granted for 'verif-q3'.",
      "Report 'q3-harvest' published",
      '"api_key":"***REDACTED***"',
      'assumption  anonymous actor; mcp requires auth → authorize would deny',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('shows the invocation rules over a run: three deletions, the fourth refused, a note outside the folder, an unknown run', async () => {
    const text = await transcript();
    const scene = text.slice(text.indexOf('14. Invocation rules judge the whole run'), text.indexOf('15. One message, two models'));
    expect(scene).toContain('registry.startRun() opened ‹pruning run› with a complete, empty history');
    expect(scene).toContain('Deletions #2 ✓, #5 ✓, #6 ✓; then a fourth:');
    expect(scene).toContain('› delete_note {"id":7}  as agent:pruner on mcp, scopes notes:read notes:write, run ‹pruning run›');
    expect(scene).toContain(
      "Error: Call to 'delete_note' refused by invocation rule 'notes.max_deletions_per_run' (reason: too_many_deletions).",
    );
    expect(scene).toContain('meta.rule → notes.max_deletions_per_run, meta.reason → too_many_deletions. Note 7 is still there: yes.');
    expect(scene).toContain(
      "The run's history, which the rule counted: executed note:2, executed note:5, executed note:6, " +
        'invocation_denied note:7 (complete: yes).',
    );
    expect(scene).toContain("Error: Call to 'get_note' refused by invocation rule 'notes.own_folder' (reason: outside_folder).");
    expect(scene).toContain(
      "Error: Call to 'delete_note' refused by invocation rule 'notes.max_deletions_per_run' (reason: history_incomplete).",
    );
    expect(scene.match(/\[FORBIDDEN\]/g)).toHaveLength(3);
  });

  it('routes one message for two models side by side, then tidies a call a model sent', async () => {
    const text = await transcript();
    const routed = text.slice(text.indexOf('15. One message, two models'), text.indexOf('16. Tidying what a model sent'));
    expect(routed).toContain('The message: "Delete the note about maize, then email me a digest with send_digest"');
    expect(routed).toContain('The caller: cli on cli, scopes *, who may call all 12 tools.');
    expect(routed).toMatch(/ {22}openai \/ gpt-4o-mini {2}ollama \/ llama3\.1:8b\n/);
    expect(routed).toMatch(/profile +full +minimal\n/);
    expect(routed).toMatch(/descriptions +whole +first line\n/);
    expect(routed).toMatch(/budget +8 tools +5 tools\n/);
    expect(routed).toMatch(/estimated tokens +[\d,]+ +[\d,]+\n/);
    expect(routed).toMatch(/send_digest +✓ pinned +✓ pinned\n/);
    expect(routed).toMatch(/delete_note +✓ pinned +✓ pinned\n/);
    expect(routed).toMatch(/lookup_crop +✓ +—\n/);
    expect(routed).toMatch(/resolve_verification +— +—\n/);
    expect(routed).toMatch(/left out +4 +7\n/);
    expect(routed).toContain('delete_note, send_digest are pinned: the message names them');
    expect(routed).toContain('openai / gpt-4o-mini leaves out publish_report, request_verification, resolve_verification, project_info.');
    expect(routed).toContain(
      'ollama / llama3.1:8b leaves out lookup_crop, publish_report, request_verification, resolve_verification, ' +
        'code_search, file_read, project_info.',
    );
    expect(routed).toContain(
      'For agent:reader (notes:read almanac:read) the same message offers ollama only ' +
        'get_note, list_notes, lookup_crop, request_verification',
    );
    const [openai = 0, ollama = 0] = (/estimated tokens +([\d,]+) +([\d,]+)/.exec(routed) ?? [])
      .slice(1)
      .map((figure) => Number(figure.replaceAll(',', '')));
    expect(ollama).toBeLessThan(openai);

    const tidied = text.slice(text.indexOf('16. Tidying what a model sent'), text.indexOf('\nNext'));
    expect(tidied).toContain('› list_notes {"page":"0","per_page":" ","tag":"*"}  as agent:assistant on mcp, scopes notes:read');
    expect(tidied).toContain('Page 1 of 1 (3 items total)');
    expect(tidied).toContain(
      'meta.tidied → [{"field":"page","action":"converted"},{"field":"page","action":"bounded"},' +
        '{"field":"per_page","action":"dropped"},{"field":"tag","action":"dropped"}]',
    );
  });

  it('searches and reads the demo workspace with the built-in tools, page by page, and refuses secrets and paths outside it', async () => {
    const text = await transcript();
    const scene = text.slice(
      text.indexOf('17. Built-in tools over a workspace'),
      text.indexOf("18. An agent's delete is held for a person"),
    );
    expect(scene).toContain('over a small farm project in ‹workspace›.');
    expect(scene).not.toContain(tmpdir());
    expect(scene).toContain('› code_search {"pattern":"water","limit":3}  as agent:coder on mcp, scopes workspace:read');
    expect(scene).toContain('truncated → true, next_offset → 3: the model asks for the next page.');
    expect(scene).toContain('› code_search {"pattern":"water","limit":3,"offset":3}');
    expect(scene).toContain(
      '{"file":"src/irrigation.ts","line":1,"text":"// How much water each crop gets, in litres per square metre and day."}',
    );
    expect(scene).toContain('next_offset → 5: file_read pages a file by lines');
    expect(scene).toContain('› file_read {"path":"notes/field-log.md","offset":5,"limit":4,"line_numbers":true}');
    expect(scene).toContain('5\t- Day 3: mulch under the squash leaves.');
    expect(scene).toContain('[SENSITIVE_PATH]');
    expect(scene).toContain('[PATH_OUTSIDE_WORKSPACE]');
    expect(scene).toMatch(/code_search \{"pattern":"MAIL_API_KEY"\}[^›]*Total: 0/);
    expect(scene).not.toContain('demo-key-never-shown');
  });

  it("holds the supervised agent's delete for a person: self-approval refused, granted by user:ana, resumed once", async () => {
    const scene = sceneOf(await transcript(), "18. An agent's delete is held for a person", '19. The approver edits the arguments');
    const agent = "as agent:assistant on mcp, scopes notes:read notes:write verification:resolve, run ‹agent:assistant's task›";
    expectAll(scene, [
      'The notes now: #1 Plant the milpa, #4 Save seed from the best ears, #7 Thin the bean rows.',
      `› delete_note {"id":7}  ${agent}`,
      "Error: agent:assistant is supervised: someone else holding verification:resolve must approve 'delete_note' before it runs. " +
        "Call 'delete_note' is held for approval (approval_id: ‹delete approval›, expires ‹expires_at›).",
      '[APPROVAL_PENDING]',
      'Nothing ran: note 7 is still there: yes.',
      `› resolve_verification {"request_id":"‹delete approval›","decision":"grant","principal":"agent:assistant"}  ${agent}`,
      "Error: Principal 'agent:assistant' opened verification request '‹delete approval›' and cannot grant it.\n    [FORBIDDEN]",
      "as user:ana on web, scopes verification:resolve\n    Verification granted for '‹delete approval›'.",
      `› delete_note {"id":7,"approval_id":"‹delete approval›"}  ${agent}\n    Note #7 deleted`,
      'The notes now: #1 Plant the milpa, #4 Save seed from the best ears.',
      `› registry.resume("‹delete approval›")  ${agent}\n    Error: This approval_id was already used`,
      'meta.approval_refusal → used: an approval runs its call once. Notes left: still 2.',
    ]);
    expect(scene.match(/Note #7 deleted/g)).toHaveLength(1);
  });

  it("runs the call with the approver's changes, and refuses a resume with other arguments", async () => {
    const scene = sceneOf(await transcript(), '19. The approver edits the arguments', '\nNext');
    expectAll(scene, [
      '› create_note {"title":"Pull up all the squash","tags":["squash"]}  as agent:assistant',
      'held for approval (approval_id: ‹create approval›, expires ‹expires_at›)',
      '"changes":{"title":"Pull up only the squash with mildew"}}  as user:ana on web',
      '› create_note {"title":"Pull up all the squash and the beans","tags":["squash"],"approval_id":"‹create approval›"}',
      'The arguments differ from the ones held for approval under this approval_id',
      'meta.approval_refusal → arguments_changed',
      '› registry.resume("‹create approval›")',
      'Note #8 created\n\n    - Title: Pull up only the squash with mildew',
      'Note #8 was saved as "Pull up only the squash with mildew", the approved title, not "Pull up all the squash".',
    ]);
    expect(scene.match(/Note #\d+ created/g)).toHaveLength(1);
  });

  it('runs the earlier deletions in runs of their own, so the confirmation and the veto still show', async () => {
    const text = await transcript();
    expect(text).toContain('› delete_note {"id":3}  as tg:ana on telegram, scopes notes:read notes:write, run ‹ana\'s chat›');
    expect(text).toContain('› delete_note {"id":1}  as cli on cli, scopes *, run ‹operator session›');
    expect(text).not.toMatch(/run run_[0-9a-f]/); // every opened run id is masked
  });

  it('prints an audit line for every call it made, refusals included, and never the secret', async () => {
    const text = await transcript();
    const auditLines = text.split('\n').filter((line) => line.includes('[ToolAudit]'));
    expect(auditLines).toHaveLength(27);
    expect(auditLines.some((line) => line.includes('AUTH_DENIED | tour-03 | mcp | list_notes | anonymous'))).toBe(true);
    expect(auditLines.some((line) => line.includes('ERROR:RATE_LIMITED'))).toBe(true);
    expect(text.match(/sk-demo-7f3a9c21/g)).toHaveLength(1); // only in the call line, which shows what the caller sent
  });

  it('uses ANSI colour only when asked to', async () => {
    expect(await transcript(false)).not.toContain('\u001b[');
    expect(await transcript(true)).toContain('\u001b[1m');
  });
});

describe('stableAuditLine', () => {
  it('replaces the duration of an audit line and nothing else', () => {
    expect(stableAuditLine('[ToolAudit] r1 | cli | list_notes | cli | 12ms | OK | args={"note":"5 | 3ms | x"}')).toBe(
      '[ToolAudit] r1 | cli | list_notes | cli | …ms | OK | args={"note":"5 | 3ms | x"}',
    );
  });
});
