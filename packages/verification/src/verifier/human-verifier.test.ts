import {
  MilpaError,
  VerificationApprovalRecordedEvent,
  VerificationContext,
  VerificationGrantedEvent,
  VerificationRejectedEvent,
  VerificationRequest,
  VerificationRequestedEvent,
  type VerificationDecision,
  type VerificationRecord,
  type VerificationStore,
} from '@milpa/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { eventOf, recordVerificationEvents } from '../../test/record-verification-events.js';
import { VerificationError } from '../errors/verification-error.js';
import { InMemoryVerificationStore } from '../store/in-memory-verification-store.js';
import { HumanVerifier } from './human-verifier.js';

function open(
  subject = 'gate:report.publish',
  policy: VerificationRequest['policy'] = 'single',
  requestedBy: string | null = 'agent:worker',
  id = 'req-1',
) {
  return new VerificationRequest(subject, policy, {}, requestedBy, id);
}

/** A resolve-only request for `id`, as a tool rebuilds it. */
function byId(id = 'req-1'): VerificationRequest {
  return VerificationRequest.forResolution(id);
}

/** Awaits `promise` and returns the VerificationError it rejects with. */
async function refusalOf(promise: Promise<unknown>): Promise<VerificationError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a VerificationError, but the promise resolved');
    },
    (caught: unknown) => caught,
  );
  expect(VerificationError.isVerificationError(error)).toBe(true);
  return error as VerificationError;
}

async function record(verifier: HumanVerifier, id = 'req-1'): Promise<VerificationRecord | null> {
  return await verifier.store.get(id);
}

describe('HumanVerifier', () => {
  describe('NAME', () => {
    it('is human_verifier', () => {
      expect(HumanVerifier.NAME).toBe('human_verifier');
    });
  });

  describe('constructor', () => {
    it.each([0, -1, 1.5, Number.NaN])('throws INVALID_ARGUMENT when quorum is %s', (quorum) => {
      expect(() => new HumanVerifier({ quorum })).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    });

    it.each([0, -5, Number.POSITIVE_INFINITY, Number.NaN])('throws INVALID_ARGUMENT when ttlMs is %s', (ttlMs) => {
      expect(() => new HumanVerifier({ ttlMs })).toThrow(MilpaError);
    });

    it('uses a fresh in-memory store when none is given', () => {
      expect(new HumanVerifier().store).toBeInstanceOf(InMemoryVerificationStore);
      expect(new HumanVerifier().store).not.toBe(new HumanVerifier().store);
    });
  });

  describe('verify', () => {
    it('returns a pending result from human_verifier with empty metadata', async () => {
      const result = await new HumanVerifier().verify(open(), new VerificationContext('someone-else'));
      expect(result.toJSON()).toEqual({
        status: 'pending',
        reason: null,
        verifier: 'human_verifier',
        principal: null,
        missing: [],
        metadata: {},
      });
    });

    it('dispatches verification.requested with only { event } when a dispatcher is given', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const request = open();
      await new HumanVerifier({ dispatcher }).verify(request);
      expect(events.map((event) => event.name)).toEqual(['verification.requested']);
      const event = eventOf(events[0], VerificationRequestedEvent);
      expect(event.getRequest()).toBe(request);
      expect(event.getRequest().subject).toBe('gate:report.publish');
      expect(event.getRequestId()).toBe('req-1');
    });

    it('stores the request with its subject, policy, requester and no approvals', async () => {
      vi.useFakeTimers({ now: new Date('2026-08-15T14:00:00Z') });
      try {
        const verifier = new HumanVerifier();
        const request = open('gate:deploy', 'dual', 'agent:worker', 'req-9');
        await verifier.verify(request);
        expect(await record(verifier, 'req-9')).toEqual({
          id: 'req-9',
          request,
          createdAt: new Date('2026-08-15T14:00:00Z'),
          expiresAt: null,
          requiredApprovals: 2,
          approvals: [],
          result: null,
          resolvedAt: null,
        });
      } finally {
        vi.useRealTimers();
      }
    });

    it('takes the requester from the context when the request names none', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:x', 'single', null), new VerificationContext('agent:worker'));
      expect((await record(verifier))?.request.requestedBy).toBe('agent:worker');
      const error = await refusalOf(verifier.grant(VerificationRequest.forResolution('req-1'), 'agent:worker'));
      expect(error.code).toBe('FORBIDDEN');
    });

    it('keeps the request requester over the context principal', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:x', 'single', 'agent:worker'), new VerificationContext('agent:other'));
      expect((await record(verifier))?.request.requestedBy).toBe('agent:worker');
    });

    it('rejects with CONFLICT and dispatches nothing when the id is already open', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const verifier = new HumanVerifier({ dispatcher });
      await verifier.verify(open('gate:first'));
      const error = await refusalOf(verifier.verify(open('gate:second')));
      expect(error).toMatchObject({ code: 'CONFLICT', kind: 'duplicate_id', requestId: 'req-1' });
      expect(error.message).toBe("Verification request 'req-1' already exists.");
      expect(events).toHaveLength(1);
      expect((await record(verifier))?.request.subject).toBe('gate:first');
    });

    it('rejects with RATE_LIMITED and dispatches nothing when the store holds its maximum of requests without a deadline', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const verifier = new HumanVerifier({ dispatcher, store: new InMemoryVerificationStore({ maxPending: 1 }) });
      await verifier.verify(open('gate:first', 'single', 'agent:worker', 'req-1'));
      const error = await refusalOf(verifier.verify(open('gate:second', 'single', 'agent:worker', 'req-2')));
      expect(error).toMatchObject({ code: 'RATE_LIMITED', kind: 'too_many_pending', requestId: 'req-2' });
      expect(events).toHaveLength(1);
      expect(await record(verifier, 'req-2')).toBeNull();
      // A request with a deadline is still taken: it leaves the store on its own.
      const timed = new HumanVerifier({ ttlMs: 60_000, store: verifier.store });
      expect((await timed.verify(open('gate:third', 'single', 'agent:worker', 'req-3'))).status).toBe('pending');
    });

    it('rejects with CONFLICT when the id was already resolved', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open());
      await verifier.grant(byId(), 'agent:reviewer');
      const error = await refusalOf(verifier.verify(open()));
      expect(error.code).toBe('CONFLICT');
      expect((await record(verifier))?.result?.status).toBe('passed');
    });

    it('rejects with VALIDATION_ERROR when the request has no subject', async () => {
      const error = await refusalOf(new HumanVerifier().verify(VerificationRequest.forResolution('req-1')));
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', kind: 'invalid_request' });
    });

    it('rejects with VALIDATION_ERROR and stores nothing when the request has no id', async () => {
      const verifier = new HumanVerifier();
      const error = await refusalOf(verifier.verify(new VerificationRequest('gate:x')));
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', kind: 'invalid_request', requestId: null });
      expect((verifier.store as InMemoryVerificationStore).size).toBe(0);
    });

    it('needs two approvals for dual and the configured count for quorum', async () => {
      const verifier = new HumanVerifier({ quorum: 3 });
      await verifier.verify(open('gate:a', 'dual', null, 'dual-1'));
      await verifier.verify(open('gate:b', 'quorum', null, 'quorum-1'));
      await verifier.verify(open('gate:c', 'single', null, 'single-1'));
      expect((await record(verifier, 'dual-1'))?.requiredApprovals).toBe(2);
      expect((await record(verifier, 'quorum-1'))?.requiredApprovals).toBe(3);
      expect((await record(verifier, 'single-1'))?.requiredApprovals).toBe(1);
    });

    it('needs two approvals for quorum by default', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:b', 'quorum'));
      expect((await record(verifier))?.requiredApprovals).toBe(2);
    });

    it('passes at once and dispatches requested then granted when the policy is auto', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const verifier = new HumanVerifier({ dispatcher });
      const request = open('gate:auto', 'auto');
      const result = await verifier.verify(request);
      expect(result.toJSON()).toEqual({
        status: 'passed',
        reason: null,
        verifier: 'human_verifier',
        principal: null,
        missing: [],
        metadata: {},
      });
      expect(events.map((event) => event.name)).toEqual(['verification.requested', 'verification.granted']);
      const granted = eventOf(events[1], VerificationGrantedEvent);
      expect(granted.getResult()).toBe(result);
      expect(granted.getRequest()).toBe(request);
      expect(await record(verifier)).toMatchObject({ requiredApprovals: 0, result, expiresAt: null });
    });

    it('refuses any later decision on an auto request with CONFLICT', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:auto', 'auto'));
      expect((await refusalOf(verifier.grant(byId(), 'agent:reviewer'))).kind).toBe('already_resolved');
      expect((await refusalOf(verifier.reject(byId(), 'agent:reviewer', 'no'))).kind).toBe('already_resolved');
    });

    it('sets the expiry ttlMs after the creation time', async () => {
      vi.useFakeTimers({ now: new Date('2026-08-15T14:00:00Z') });
      try {
        const verifier = new HumanVerifier({ ttlMs: 60_000 });
        await verifier.verify(open());
        expect((await record(verifier))?.expiresAt).toEqual(new Date('2026-08-15T14:01:00Z'));
      } finally {
        vi.useRealTimers();
      }
    });
  });

  describe('grant', () => {
    describe('with changes', () => {
      it('stores the changes with the grant and returns them in the verdict metadata', async () => {
        const verifier = new HumanVerifier();
        await verifier.verify(open());
        const result = await verifier.grant(byId(), 'agent:reviewer', 'smaller amount', { changes: { amount: 90 } });
        expect(result.metadata).toEqual({ reason: 'smaller amount', changes: { amount: 90 } });
        expect((await record(verifier))?.approvals[0]?.changes).toEqual({ amount: 90 });
      });

      it('treats an empty object as no change', async () => {
        const verifier = new HumanVerifier();
        await verifier.verify(open());
        const result = await verifier.grant(byId(), 'agent:reviewer', null, { changes: {} });
        expect(result.metadata).toEqual({});
        expect((await record(verifier))?.approvals[0]).not.toHaveProperty('changes');
      });

      it.each([
        ['an array', [1]],
        ['a string', 'amount=90'],
        ['a Date value', { at: new Date(0) }],
        ['an undefined value', { amount: undefined }],
        ['a function', { run: () => 1 }],
        ['NaN', { amount: Number.NaN }],
        [
          'a class instance',
          new (class Changes {
            amount = 1;
          })(),
        ],
      ])('refuses %s as changes with VALIDATION_ERROR (invalid_changes) and records nothing', async (_label, changes) => {
        const verifier = new HumanVerifier();
        await verifier.verify(open());
        const error = await refusalOf(verifier.grant(byId(), 'agent:reviewer', null, { changes: changes as never }));
        expect(error).toMatchObject({ code: 'VALIDATION_ERROR', kind: 'invalid_changes' });
        expect((await record(verifier))?.approvals).toEqual([]);
      });
    });

    it('returns PASSED with the verifier, the principal and empty metadata when no reason is given', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open());
      const result = await verifier.grant(byId(), 'agent:reviewer');
      expect(result.toJSON()).toEqual({
        status: 'passed',
        reason: null,
        verifier: 'human_verifier',
        principal: 'agent:reviewer',
        missing: [],
        metadata: {},
      });
    });

    it('puts the reason in metadata and leaves reason null when a reason is given', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open());
      const result = await verifier.grant(byId(), 'agent:reviewer', 'looks right');
      expect(result.metadata).toEqual({ reason: 'looks right' });
      expect(result.reason).toBeNull();
    });

    it('dispatches verification.granted with { event } carrying the stored request and the result', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const verifier = new HumanVerifier({ dispatcher });
      const request = open('gate:report.publish', 'single', 'agent:worker');
      await verifier.verify(request);
      const result = await verifier.grant(VerificationRequest.forResolution('req-1'), 'agent:reviewer');
      expect(events.map((event) => event.name)).toEqual(['verification.requested', 'verification.granted']);
      const event = eventOf(events[1], VerificationGrantedEvent);
      expect(event.getResult()).toBe(result);
      expect(event.getRequestId()).toBe('req-1');
      // The resolution request had no subject and policy single; the event carries the real one.
      expect(event.getRequest()).toBe(request);
    });

    it('accepts a resolve-only request and enforces the stored policy, not the resolution request policy', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:x', 'dual'));
      const result = await verifier.grant(VerificationRequest.forResolution('req-1', 'single'), 'user:ana');
      expect(result.status).toBe('pending');
    });

    it('rejects with NOT_FOUND and dispatches nothing when the id is unknown', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const error = await refusalOf(new HumanVerifier({ dispatcher }).grant(VerificationRequest.forResolution('r-1'), 'agent:reviewer'));
      expect(error).toMatchObject({ code: 'NOT_FOUND', kind: 'not_found', requestId: 'r-1' });
      expect(error.message).toBe("Verification request 'r-1' does not exist.");
      expect(events).toEqual([]);
    });

    it('rejects with CONFLICT when the request is already granted, and keeps the first verdict', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const verifier = new HumanVerifier({ dispatcher });
      await verifier.verify(open());
      const first = await verifier.grant(byId(), 'agent:reviewer');
      const error = await refusalOf(verifier.grant(byId(), 'agent:other'));
      expect(error).toMatchObject({ code: 'CONFLICT', kind: 'already_resolved' });
      expect(error.message).toBe("Verification request 'req-1' is already resolved (passed).");
      expect((await record(verifier))?.result).toBe(first);
      expect(events.filter((event) => event.name === 'verification.granted')).toHaveLength(1);
    });

    it('rejects with CONFLICT when the request was rejected', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open());
      await verifier.reject(byId(), 'agent:reviewer', 'no');
      const error = await refusalOf(verifier.grant(byId(), 'agent:other'));
      expect(error.message).toBe("Verification request 'req-1' is already resolved (failed).");
    });

    it('rejects with FORBIDDEN and records nothing when the requester grants its own request', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:x', 'single', 'agent:worker'));
      const error = await refusalOf(verifier.grant(VerificationRequest.forResolution('req-1'), 'agent:worker'));
      expect(error).toMatchObject({ code: 'FORBIDDEN', kind: 'self_approval' });
      expect(error.message).toBe("Principal 'agent:worker' opened verification request 'req-1' and cannot grant it.");
      expect(await record(verifier)).toMatchObject({ approvals: [], result: null });
    });

    it('rejects with FORBIDDEN when the requester tries to complete a dual request', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:x', 'dual', 'agent:worker'));
      await verifier.grant(byId(), 'user:ana');
      expect((await refusalOf(verifier.grant(byId(), 'agent:worker'))).code).toBe('FORBIDDEN');
      expect((await record(verifier))?.result).toBeNull();
    });

    it('rejects with CONFLICT when the subject differs from the stored one', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:report.publish'));
      const error = await refusalOf(verifier.grant(open('gate:payroll.run'), 'agent:reviewer'));
      expect(error).toMatchObject({ code: 'CONFLICT', kind: 'subject_mismatch' });
      expect(error.message).toBe("Verification request 'req-1' is for subject 'gate:report.publish', not 'gate:payroll.run'.");
      expect((await record(verifier))?.result).toBeNull();
    });

    it('rejects with VALIDATION_ERROR when the principal is blank', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open());
      expect((await refusalOf(verifier.grant(byId(), '  '))).code).toBe('VALIDATION_ERROR');
      expect((await record(verifier))?.approvals).toEqual([]);
    });

    it('rejects with VALIDATION_ERROR when the request has no id', async () => {
      const error = await refusalOf(new HumanVerifier().grant(new VerificationRequest('gate:x'), 'agent:reviewer'));
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', requestId: null });
    });

    describe('with the dual policy', () => {
      it('stays pending after one grant, says how many approvals it has and dispatches approval_recorded', async () => {
        const { dispatcher, events } = recordVerificationEvents();
        const verifier = new HumanVerifier({ dispatcher });
        await verifier.verify(open('gate:x', 'dual'));
        const result = await verifier.grant(byId(), 'user:ana', 'ok by me');
        expect(result.toJSON()).toEqual({
          status: 'pending',
          reason: null,
          verifier: 'human_verifier',
          principal: null,
          missing: [],
          metadata: { approvals: 1, required: 2 },
        });
        expect(events.map((event) => event.name)).toEqual(['verification.requested', 'verification.approval_recorded']);
        const recorded = eventOf(events[1], VerificationApprovalRecordedEvent);
        expect([recorded.getRequestId(), recorded.getApprovals(), recorded.getRequired()]).toEqual(['req-1', 1, 2]);
        expect(recorded.getApproval()).toMatchObject({ principal: 'user:ana', reason: 'ok by me' });
        expect(recorded.getRequest().subject).toBe('gate:x');
        expect((await record(verifier))?.approvals).toEqual([{ principal: 'user:ana', at: expect.any(Date), reason: 'ok by me' }]);
      });

      it('passes on a second grant from a distinct principal and dispatches granted once', async () => {
        const { dispatcher, events } = recordVerificationEvents();
        const verifier = new HumanVerifier({ dispatcher });
        await verifier.verify(open('gate:x', 'dual'));
        await verifier.grant(byId(), 'user:ana');
        const result = await verifier.grant(byId(), 'user:luis', 'second pair of eyes');
        expect(result.toJSON()).toMatchObject({ status: 'passed', principal: 'user:luis', metadata: { reason: 'second pair of eyes' } });
        expect(events.map((event) => event.name)).toEqual([
          'verification.requested',
          'verification.approval_recorded',
          'verification.granted',
        ]);
        expect((await record(verifier))?.approvals.map((approval) => approval.principal)).toEqual(['user:ana', 'user:luis']);
      });

      it('rejects a repeated grant by the same principal with CONFLICT and never passes', async () => {
        const verifier = new HumanVerifier();
        await verifier.verify(open('gate:x', 'dual'));
        await verifier.grant(byId(), 'user:ana');
        const error = await refusalOf(verifier.grant(byId(), 'user:ana'));
        expect(error).toMatchObject({ code: 'CONFLICT', kind: 'duplicate_approval' });
        expect(error.message).toBe(
          "Principal 'user:ana' has already granted verification request 'req-1'; " +
            "policy 'dual' needs 2 grants from distinct principals (1 so far).",
        );
        expect(await record(verifier)).toMatchObject({ result: null, approvals: [expect.objectContaining({ principal: 'user:ana' })] });
      });

      it('never passes when one principal grants concurrently many times', async () => {
        const verifier = new HumanVerifier();
        await verifier.verify(open('gate:x', 'dual'));
        const outcomes = await Promise.allSettled([1, 2, 3, 4].map(() => verifier.grant(byId(), 'user:ana')));
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        expect((await record(verifier))?.result).toBeNull();
      });
    });

    describe('with the quorum policy', () => {
      it('passes only when the configured number of distinct principals granted', async () => {
        const verifier = new HumanVerifier({ quorum: 3 });
        await verifier.verify(open('gate:x', 'quorum'));
        expect((await verifier.grant(byId(), 'user:a')).metadata).toEqual({ approvals: 1, required: 3 });
        expect((await verifier.grant(byId(), 'user:b')).metadata).toEqual({ approvals: 2, required: 3 });
        expect((await verifier.grant(byId(), 'user:c')).status).toBe('passed');
      });
    });

    describe('concurrently', () => {
      it('resolves a single request exactly once when several principals grant at the same time', async () => {
        const { dispatcher, events } = recordVerificationEvents();
        const verifier = new HumanVerifier({ dispatcher });
        await verifier.verify(open());
        const principals = ['user:a', 'user:b', 'user:c', 'user:d', 'user:e'];
        const outcomes = await Promise.allSettled(principals.map((principal) => verifier.grant(byId(), principal)));
        const passed = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        const refused = outcomes.filter((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
        expect(passed).toHaveLength(1);
        expect(refused.map((outcome) => (outcome.reason as VerificationError).kind)).toEqual(Array(4).fill('already_resolved'));
        expect(events.filter((event) => event.name === 'verification.granted')).toHaveLength(1);
      });

      it('resolves exactly once through an asynchronous store', async () => {
        const inner = new InMemoryVerificationStore();
        const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
        const store: VerificationStore = {
          open: async (record) => (await tick(), inner.open(record)),
          get: async (id) => (await tick(), inner.get(id)),
          decide: async (id: string, decision: VerificationDecision) => (await tick(), inner.decide(id, decision)),
        };
        const verifier = new HumanVerifier({ store });
        await verifier.verify(open());
        const outcomes = await Promise.allSettled(['user:a', 'user:b', 'user:c'].map((principal) => verifier.grant(byId(), principal)));
        expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
        expect((await inner.get('req-1'))?.approvals).toHaveLength(1);
      });
    });

    describe('with an expiry', () => {
      beforeEach(() => {
        vi.useFakeTimers({ now: new Date('2026-08-15T14:00:00Z') });
      });

      afterEach(() => {
        vi.useRealTimers();
      });

      it('still grants at the deadline', async () => {
        const verifier = new HumanVerifier({ ttlMs: 60_000 });
        await verifier.verify(open());
        vi.advanceTimersByTime(60_000);
        expect((await verifier.grant(byId(), 'agent:reviewer')).status).toBe('passed');
      });

      it('rejects with CONFLICT, changes nothing and dispatches nothing after the deadline', async () => {
        const { dispatcher, events } = recordVerificationEvents();
        const verifier = new HumanVerifier({ dispatcher, ttlMs: 60_000 });
        await verifier.verify(open());
        vi.advanceTimersByTime(60_001);
        const error = await refusalOf(verifier.grant(byId(), 'agent:reviewer'));
        expect(error).toMatchObject({ code: 'CONFLICT', kind: 'expired' });
        expect(error.message).toBe("Verification request 'req-1' expired at 2026-08-15T14:01:00.000Z; open a new request.");
        expect((await refusalOf(verifier.reject(byId(), 'agent:reviewer', 'late'))).kind).toBe('expired');
        expect(await record(verifier)).toMatchObject({ approvals: [], result: null });
        expect(events.map((event) => event.name)).toEqual(['verification.requested']);
      });

      it('refuses the missing grant of a dual request once the deadline passed', async () => {
        const verifier = new HumanVerifier({ ttlMs: 60_000 });
        await verifier.verify(open('gate:x', 'dual'));
        await verifier.grant(byId(), 'user:ana');
        vi.advanceTimersByTime(120_000);
        expect((await refusalOf(verifier.grant(byId(), 'user:luis'))).kind).toBe('expired');
      });

      it('reports an already resolved request as resolved, not expired, after the deadline', async () => {
        const verifier = new HumanVerifier({ ttlMs: 60_000 });
        await verifier.verify(open());
        await verifier.grant(byId(), 'agent:reviewer');
        vi.advanceTimersByTime(120_000);
        expect((await refusalOf(verifier.grant(byId(), 'agent:other'))).kind).toBe('already_resolved');
      });
    });
  });

  describe('reject', () => {
    it('returns FAILED with the reason, verifier and principal and empty missing and metadata', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open());
      const result = await verifier.reject(byId(), 'agent:reviewer', 'insufficient evidence');
      expect(result.toJSON()).toEqual({
        status: 'failed',
        reason: 'insufficient evidence',
        verifier: 'human_verifier',
        principal: 'agent:reviewer',
        missing: [],
        metadata: {},
      });
    });

    it('dispatches verification.rejected with { event } carrying the stored request and the result', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const verifier = new HumanVerifier({ dispatcher });
      const request = open();
      await verifier.verify(request);
      const result = await verifier.reject(VerificationRequest.forResolution('req-1'), 'agent:reviewer', 'no');
      expect(events.map((event) => event.name)).toEqual(['verification.requested', 'verification.rejected']);
      const event = eventOf(events[1], VerificationRejectedEvent);
      expect(event.getResult()).toBe(result);
      expect(event.getRequest()).toBe(request);
      expect(event.getRequestId()).toBe('req-1');
    });

    it('is final: a later grant or reject is CONFLICT', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open());
      const rejected = await verifier.reject(byId(), 'agent:reviewer', 'no');
      expect((await refusalOf(verifier.grant(byId(), 'agent:other'))).code).toBe('CONFLICT');
      expect((await refusalOf(verifier.reject(byId(), 'agent:other', 'also no'))).code).toBe('CONFLICT');
      expect((await record(verifier))?.result).toBe(rejected);
    });

    it('finalizes a dual request that already has one grant', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:x', 'dual'));
      await verifier.grant(byId(), 'user:ana');
      expect((await verifier.reject(byId(), 'user:luis', 'no')).status).toBe('failed');
      expect((await refusalOf(verifier.grant(byId(), 'user:luis'))).kind).toBe('already_resolved');
    });

    it('lets the requester withdraw its own request', async () => {
      const verifier = new HumanVerifier();
      await verifier.verify(open('gate:x', 'single', 'agent:worker'));
      expect((await verifier.reject(byId(), 'agent:worker', 'withdrawn')).status).toBe('failed');
    });

    it('rejects with NOT_FOUND when the id is unknown', async () => {
      const error = await refusalOf(new HumanVerifier().reject(VerificationRequest.forResolution('r-1'), 'agent:reviewer', 'no'));
      expect(error.code).toBe('NOT_FOUND');
    });
  });

  describe('without a dispatcher', () => {
    it('returns the same results and dispatches nothing', async () => {
      const { dispatcher, events } = recordVerificationEvents();
      const silent = new HumanVerifier();
      const loud = new HumanVerifier({ dispatcher });
      const run = async (verifier: HumanVerifier) => [
        (await verifier.verify(open('gate:a', 'single', null, 'a'))).toJSON(),
        (await verifier.grant(VerificationRequest.forResolution('a'), 'agent:reviewer', 'fine')).toJSON(),
        (await verifier.verify(open('gate:b', 'single', null, 'b'))).toJSON(),
        (await verifier.reject(VerificationRequest.forResolution('b'), 'agent:reviewer', 'no')).toJSON(),
      ];
      expect(await run(silent)).toEqual(await run(loud));
      expect(events).toHaveLength(4);
      const dispatchSpy = vi.spyOn(dispatcher, 'dispatch');
      await run(new HumanVerifier());
      expect(dispatchSpy).not.toHaveBeenCalled();
    });
  });
});
