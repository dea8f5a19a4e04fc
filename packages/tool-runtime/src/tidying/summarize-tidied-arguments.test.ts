import { describe, expect, it } from 'vitest';
import { summarizeTidiedArguments } from './summarize-tidied-arguments.js';

describe('summarizeTidiedArguments', () => {
  it('names each change with the value sent and, when still present, the value now', () => {
    expect(
      summarizeTidiedArguments([
        { field: 'status', action: 'dropped', sent: '*', present: false, value: undefined },
        { field: 'page', action: 'bounded', sent: 0, present: true, value: 1 },
      ]),
    ).toBe('status dropped (sent "*"); page bounded (sent 0, now 1)');
  });

  it('is empty when nothing changed', () => {
    expect(summarizeTidiedArguments([])).toBe('');
  });

  it('cuts a long value to 60 characters, so a summary stays one readable line', () => {
    const line = summarizeTidiedArguments([
      { field: 'note', action: 'dropped', sent: `${' '.repeat(200)}`, present: false, value: undefined },
    ]);
    expect(line).toBe(`note dropped (sent "${' '.repeat(59)}…)`);
  });

  it('never throws on a value JSON cannot write', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(summarizeTidiedArguments([{ field: 'x', action: 'dropped', sent: cyclic, present: false, value: undefined }])).toBe(
      'x dropped (sent …)',
    );
    expect(summarizeTidiedArguments([{ field: 'x', action: 'dropped', sent: undefined, present: false, value: undefined }])).toBe(
      'x dropped (sent undefined)',
    );
  });
});
