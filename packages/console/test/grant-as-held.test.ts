import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TOKENS, holdCall, startConsoleFixture, type ConsoleFixture } from './support/console-fixture.js';
import { formFields } from './support/form-fields.js';
import { HELD, publishPost, ran } from './support/publish-post-tool.js';
import { RecordingClient } from './support/recording-client.js';

let fixture: ConsoleFixture;
const bodies: string[] = [];

beforeEach(async () => {
  fixture = await startConsoleFixture({}, { tools: [publishPost] });
  bodies.length = 0;
  ran.length = 0;
});

afterEach(async () => {
  await fixture.close();
});

async function approver(token: string): Promise<RecordingClient> {
  return RecordingClient.signIn(fixture.url, token, bodies);
}

async function recordOf(id: string) {
  const record = await fixture.verifier.store.get(id);
  if (record === null) throw new Error(`no record ${id}`);
  return record;
}

const page = (id: string, step = ''): string => `/approvals/approvals/${id}${step === '' ? '' : `/${step}`}`;

describe('granting as held', () => {
  it('runs the call with the held arguments when the Grant form is submitted unchanged, as a browser would', async () => {
    const id = await holdCall(fixture, 'publish_post', HELD);
    const ana = await approver(TOKENS.ana);
    const detail = await ana.get(page(id));
    const form = formFields(detail.body, `${id}/grant`);
    expect(form.map(([name]) => name)).toEqual(['_csrf', 'proposal', 'reason']);
    const g = await ana.post(page(id, 'grant'), form);
    expect(g.status).toBe(303);
    expect((await recordOf(id)).approvals[0]?.changes).toBeUndefined();
    const done = await fixture.registry.resume(id, fixture.agent);
    expect(done.success).toBe(true);
    expect(ran).toStrictEqual([HELD]);
  });

  it('keeps every held value when the edit form is submitted untouched (no change to review)', async () => {
    const id = await holdCall(fixture, 'publish_post', HELD);
    const ana = await approver(TOKENS.ana);
    const edit = await ana.get(page(id, 'edit'));
    expect(edit.body).toContain('<option value="" selected>not set</option><option value="true">true</option>');
    expect(edit.body).not.toContain('name="edit.meta"');
    expect(edit.body).toContain('Not editable here, so they run as requested: <code>meta</code>, <code>tags</code>.');
    const form = formFields(edit.body, `${id}/review`);
    const sent = new Map(form);
    expect(sent.get('edit.body')).toBe(HELD.body.replace(/\r?\n/g, '\r\n'));
    expect([sent.get('edit.ratio'), sent.get('edit.big'), sent.get('edit.count'), sent.get('edit.pinned')]).toEqual([
      '0.1',
      '1e+21',
      '-5',
      '',
    ]);
    const review = await ana.post(page(id, 'review'), form);
    expect(review.status).toBe(422);
    expect(review.body).toContain('You changed no field.');
    expect((await recordOf(id)).approvals).toHaveLength(0);
  });

  it('runs an edited call with the typed line breaks as \\n and leaves untouched optional fields absent', async () => {
    const id = await holdCall(fixture, 'publish_post', HELD);
    const ana = await approver(TOKENS.ana);
    const form = formFields((await ana.get(page(id, 'edit'))).body, `${id}/review`).map(([name, value]): [string, string] => {
      if (name === 'edit.title') return [name, 'first\r\nsecond'];
      if (name === 'edit.count') return [name, '9007199254740991'];
      return [name, value];
    });
    const review = await ana.post(page(id, 'review'), form);
    expect(review.status).toBe(200);
    expect(review.body).toContain('<code>&quot;first\\nsecond&quot;</code>');
    const granted = await ana.post(page(id, 'grant'), formFields(review.body, `${id}/grant`));
    expect(granted.status).toBe(303);
    expect((await recordOf(id)).approvals[0]?.changes).toEqual({ title: 'first\nsecond', count: 9007199254740991 });
    expect((await fixture.registry.resume(id, fixture.agent)).success).toBe(true);
    expect(ran).toStrictEqual([{ ...HELD, title: 'first\nsecond', count: 9007199254740991 }]);
  });
});
