// Regression: HumanVerifier counted 'alice' and 'alice ' as two distinct approvers, so one person
// could pass a dual request alone, and a padded spelling dodged the self-approval rule.
import { VerificationRequest } from '@milpa/core';
import { describe, expect, it } from 'vitest';
import { HumanVerifier } from '../../src/index.js';

describe('regression: padded principal spellings', () => {
  it('refuses a second grant by the same principal spelled with padding on a dual request', async () => {
    const verifier = new HumanVerifier();
    const request = new VerificationRequest('gate:deploy', 'dual', {}, 'bob', 'req-dual');
    await verifier.verify(request);
    const first = await verifier.grant(request, 'alice');
    expect(first.isPending()).toBe(true);
    await expect(verifier.grant(request, ' alice ')).rejects.toMatchObject({ code: 'CONFLICT' });
    expect((await verifier.grant(request, 'carol')).isSatisfied()).toBe(true);
  });

  it('refuses the requester granting its own request under a padded spelling', async () => {
    const verifier = new HumanVerifier();
    const request = new VerificationRequest('gate:deploy', 'single', {}, 'bob', 'req-self');
    await verifier.verify(request);
    await expect(verifier.grant(request, 'bob  ')).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('records the trimmed principal on the verdict', async () => {
    const verifier = new HumanVerifier();
    const request = new VerificationRequest('gate:deploy', 'single', {}, 'bob', 'req-trim');
    await verifier.verify(request);
    expect((await verifier.grant(request, '  alice')).principal).toBe('alice');
  });
});
