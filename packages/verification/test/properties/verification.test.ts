import { ToolContext, VerificationRequest, type VerificationResult, type VerificationStore } from '@milpa/core';
import { SchemaValidator, ToolRegistry } from '@milpa/tool-runtime';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VerificationError } from '../../src/errors/verification-error.js';
import { InMemoryVerificationStore } from '../../src/store/in-memory-verification-store.js';
import { VerificationTool } from '../../src/tool/verification-tool.js';
import { HumanVerifier } from '../../src/verifier/human-verifier.js';
import { recordVerificationEvents } from '../record-verification-events.js';

const REQUESTER = 'agent:worker';
const QUORUM = 3;
const REQUIRED = { single: 1, dual: 2, quorum: QUORUM } as const;
type HumanPolicy = keyof typeof REQUIRED;

/** A store that answers through the scheduler: fast-check decides in which order concurrent decisions land. */
function scheduledStore(inner: InMemoryVerificationStore, pause: () => Promise<unknown>): VerificationStore {
  return {
    open: (record) => pause().then(() => inner.open(record)),
    get: (id) => pause().then(() => inner.get(id)),
    decide: (id, decision) => pause().then(() => inner.decide(id, decision)),
  };
}

/** The outcome of one grant: the verdict's status, or the refusal's kind. */
async function outcomeOf(grant: Promise<VerificationResult>): Promise<string> {
  try {
    return (await grant).status;
  } catch (error) {
    if (!VerificationError.isVerificationError(error)) throw error;
    return error.kind;
  }
}

// Grants come from a few principals, repeated, and from the requester itself.
const granter = fc.constantFrom(REQUESTER, 'user:ana', 'user:luis', 'user:mar', 'user:noe');

describe('HumanVerifier', () => {
  describe('grant (property: concurrent grants)', () => {
    it('passes exactly once, and only once enough distinct non-requesting principals granted, however grants interleave', async () => {
      const seen = new Set<string>();
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.constantFrom<HumanPolicy>('single', 'dual', 'quorum'),
          // Mixed grants, plus two biased shapes so every outcome (including "only the requester
          // granted") shows up in every run of the property, not just most of them.
          fc.oneof(
            fc.array(granter, { minLength: 1, maxLength: 16 }),
            fc.array(fc.constant(REQUESTER), { minLength: 1, maxLength: 4 }),
            fc.array(fc.constantFrom(REQUESTER, 'user:ana'), { minLength: 1, maxLength: 6 }),
          ),
          async (scheduler, policy, grants) => {
            const inner = new InMemoryVerificationStore();
            const { dispatcher, events } = recordVerificationEvents();
            const pause = (): Promise<unknown> => scheduler.schedule(Promise.resolve());
            const verifier = new HumanVerifier({ dispatcher, store: scheduledStore(inner, pause), quorum: QUORUM });
            const request = new VerificationRequest('gate:deploy', policy, {}, REQUESTER, 'req-1');
            await scheduler.waitFor(verifier.verify(request));

            const racing = grants.map((principal) => outcomeOf(verifier.grant(VerificationRequest.forResolution('req-1'), principal)));
            const outcomes = await scheduler.waitFor(Promise.all(racing));

            const distinct = new Set(grants.filter((principal) => principal !== REQUESTER)).size;
            const passes = distinct >= REQUIRED[policy];
            expect(outcomes.filter((outcome) => outcome === 'passed')).toHaveLength(passes ? 1 : 0);
            expect(events.filter((event) => event.name === 'verification.granted')).toHaveLength(passes ? 1 : 0);
            const stored = inner.get('req-1')!;
            expect(stored.result?.status ?? null).toBe(passes ? 'passed' : null);
            // No principal is ever counted twice, and the requester never counts.
            const approvers = stored.approvals.map((approval) => approval.principal);
            expect(new Set(approvers).size).toBe(approvers.length);
            expect(approvers).not.toContain(REQUESTER);
            expect(approvers.length).toBe(Math.min(distinct, REQUIRED[policy]));
            for (const [index, outcome] of outcomes.entries()) {
              if (grants[index] === REQUESTER) expect(['self_approval', 'already_resolved']).toContain(outcome);
              else expect(['passed', 'pending', 'duplicate_approval', 'already_resolved']).toContain(outcome);
            }
            seen.add(`${policy}:${passes ? 'passed' : 'pending'}`);
          },
        ),
        { numRuns: 400 },
      );
      expect([...seen].sort()).toEqual([
        'dual:passed',
        'dual:pending',
        'quorum:passed',
        'quorum:pending',
        'single:passed',
        'single:pending',
      ]);
    });

    it("never passes a dual request on one principal's repeated grants, however many and however raced", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.scheduler(),
          fc.constantFrom('user:ana', 'user:luis'),
          fc.integer({ min: 1, max: 12 }),
          async (scheduler, principal, repeats) => {
            const inner = new InMemoryVerificationStore();
            const pause = (): Promise<unknown> => scheduler.schedule(Promise.resolve());
            const verifier = new HumanVerifier({ store: scheduledStore(inner, pause) });
            await scheduler.waitFor(verifier.verify(new VerificationRequest('gate:deploy', 'dual', {}, REQUESTER, 'req-1')));
            const grants = Array.from({ length: repeats }, () =>
              outcomeOf(verifier.grant(VerificationRequest.forResolution('req-1'), principal)),
            );
            const outcomes = await scheduler.waitFor(Promise.all(grants));
            expect(outcomes.filter((outcome) => outcome === 'pending')).toHaveLength(1);
            expect(outcomes.filter((outcome) => outcome === 'duplicate_approval')).toHaveLength(repeats - 1);
            expect(inner.get('req-1')!.result).toBeNull();
            // A second, different principal is what completes it.
            const other = principal === 'user:ana' ? 'user:luis' : 'user:ana';
            expect(await scheduler.waitFor(outcomeOf(verifier.grant(VerificationRequest.forResolution('req-1'), other)))).toBe('passed');
          },
        ),
        { numRuns: 200 },
      );
    });
  });
});

// Shared so that each run's registry reuses the two compiled input schemas.
const validator = new SchemaValidator();

describe('VerificationTool through a ToolRegistry', () => {
  describe('resolve_verification (property: one caller, any principal argument)', () => {
    it('never passes a dual request on calls from one caller, whatever principal each call claims', async () => {
      const claimed = fc.constantFrom('user:ana', ' user:ana', 'user:ana ', 'USER:ANA', 'user:luis', 'agent:worker', '*');
      await fc.assert(
        fc.asyncProperty(fc.array(claimed, { minLength: 1, maxLength: 10 }), async (principals) => {
          const registry = new ToolRegistry({ defaultContext: () => ToolContext.cli(), validator });
          new VerificationTool(new HumanVerifier()).register(registry);
          const worker = ToolContext.web('agent:worker', ['verify']);
          const opened = await registry.call('request_verification', { subject: 'gate:deploy', policy: 'dual' }, worker);
          const requestId = (opened.data as { request_id: string }).request_id;
          const ana = ToolContext.web('user:ana', ['verify']);
          const results = await Promise.all(
            principals.map((principal) =>
              registry.call('resolve_verification', { request_id: requestId, decision: 'grant', principal }, ana),
            ),
          );
          expect(results.some((result) => (result.data as { status?: string } | null)?.status === 'passed')).toBe(false);
          // Padded spellings of the caller's own principal are the caller; every other claim is refused.
          const asSelf = principals.filter((principal) => principal.trim() === 'user:ana').length;
          const codes = results.map((result) => String(result.meta['code'] ?? result.meta['verification_status']));
          expect(codes.filter((code) => code === 'pending')).toHaveLength(asSelf > 0 ? 1 : 0);
          expect(codes.filter((code) => code === 'CONFLICT')).toHaveLength(Math.max(0, asSelf - 1));
          expect(codes.filter((code) => code === 'FORBIDDEN')).toHaveLength(principals.length - asSelf);
        }),
        { numRuns: 200 },
      );
    });
  });
});
