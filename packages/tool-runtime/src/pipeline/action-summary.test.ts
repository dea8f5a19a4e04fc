import { describe, expect, it } from 'vitest';
import { REDACTED, Redactor } from '../audit/redactor.js';
import { describeActionSummary } from './action-summary.js';

describe('describeActionSummary', () => {
  it('redacts a secret field and scrubs the same secret quoted under an ordinary name', () => {
    const args = { note: 'pw is s3cr3t-77', password: 's3cr3t-77', id: 4 };
    expect(describeActionSummary('reset', args, new Redactor(), null)).toBe(`reset(note=pw is ${REDACTED}, password=${REDACTED}, id=4)`);
  });

  it("scrubs a secret nested in an array that a top-level argument repeats, and a writeOnly field's value", () => {
    const schema = { type: 'object', properties: { pin: { type: 'string', writeOnly: true } } };
    const args = { title: 'deploy nested-k3y and 9911', users: [{ api_key: 'nested-k3y' }], pin: '9911' };
    const summary = describeActionSummary('deploy', args, new Redactor(), schema);
    expect(summary).toBe(`deploy(title=deploy ${REDACTED} and ${REDACTED}, pin=${REDACTED})`);
  });
});
