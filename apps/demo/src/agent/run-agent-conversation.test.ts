import { describe, expect, it } from 'vitest';
import { runAgentConversation } from './run-agent-conversation.js';

async function converse(color = false): Promise<{ text: string; report: Awaited<ReturnType<typeof runAgentConversation>> }> {
  let text = '';
  const report = await runAgentConversation({ write: (chunk) => (text += chunk), color });
  return { text, report };
}

describe('runAgentConversation', () => {
  it(
    'shows a refusal the model reads, an approval through the AI SDK and the result, ' + 'each call audited once under its tool call id',
    async () => {
      const { text, report } = await converse();
      expect(report.refusalCode).toBe('FORBIDDEN');
      expect(report.approvalRequests).toBe(1);
      expect(report.deleted).toBe(true);
      expect(report.audit).toEqual({ 'call-1': ['ok'], 'call-2': ['invocation_denied'], 'call-3': ['approval_pending', 'ok'] });
      expect(report.answer).toContain('The squash note (3) is deleted');
      expect(report.answer).toContain('could not open the seed note (FORBIDDEN)');
      for (const line of [
        'offered:  create_note, delete_note, get_note, list_notes, request_verification',
        'model   → list_notes {} [call-1]',
        "milpa   ✗ FORBIDDEN Call to 'get_note' refused by invocation rule 'notes.own_folder' (reason: outside_folder).",
        'ai sdk  ⏸ tool-approval-request for call-3',
        'person  ✓ approve delete_note {"id":3}',
        'milpa   ✓ ok {"deleted":3,"title":"Squash shades the soil"}',
        'call-3  approval_pending → ok',
      ]) {
        expect(text).toContain(line);
      }
      // The approval request comes before the deletion's result: nothing ran until the person answered.
      expect(text.indexOf('tool-approval-request')).toBeLessThan(text.indexOf('"deleted":3'));
    },
  );

  it('writes plain text unless asked for colour', async () => {
    expect((await converse(false)).text).not.toContain('\u001b[');
    expect((await converse(true)).text).toContain('\u001b[');
  });

  it('starts from the same notes on every run', async () => {
    const first = await converse();
    const second = await converse();
    expect(second.report).toEqual(first.report);
  });
});
