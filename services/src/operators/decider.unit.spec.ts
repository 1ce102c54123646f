import { describe, expect, it } from 'vitest';
import { RuleViolation } from '../core/errors';
import { type ConsumerOperationCommand, consumerOperationsDecider as decider } from './decider';
import type { ConsumerOperationEvent } from './events';

/** Given past operator events on `consumer-<name>`, when a command, then these events (or this refusal). */
function given(past: ConsumerOperationEvent[]) {
  const state = past.reduce(decider.evolve, decider.initialState());
  return {
    when: (command: ConsumerOperationCommand) => ({
      then: (expected: ConsumerOperationEvent[]) => expect(decider.decide(command, state)).toEqual(expected),
      thenRefused: (message: RegExp) => {
        expect(() => decider.decide(command, state)).toThrow(RuleViolation);
        expect(() => decider.decide(command, state)).toThrow(message);
      },
    }),
  };
}

const consumer = 'wallet-ledger';
const paused: ConsumerOperationEvent = { type: 'ConsumerPaused', data: { consumer, reason: 'bank reconciliation' } };
const resumed: ConsumerOperationEvent = { type: 'ConsumerResumed', data: { consumer } };
const requested = (id: string): ConsumerOperationEvent => ({ type: 'ProjectionRebuildRequested', data: { consumer, rebuild_id: id } });
const failure = { globalPosition: 41, error: 'invalid input syntax for type integer: "0ten"' };

describe('pausing and resuming a consumer', () => {
  it('pauses a running consumer with the reason given', () => {
    given([]).when({ type: 'Pause', consumer, reason: 'bank reconciliation' }).then([paused]);
  });
  it('refuses to pause a paused consumer, and to resume one that is not paused', () => {
    given([paused]).when({ type: 'Pause', consumer, reason: null }).thenRefused(/already paused/);
    given([]).when({ type: 'Resume', consumer }).thenRefused(/is not paused/);
    given([paused, resumed]).when({ type: 'Resume', consumer }).thenRefused(/is not paused/);
  });
  it('resumes a paused consumer', () => {
    given([paused]).when({ type: 'Resume', consumer }).then([resumed]);
  });
});

describe('retrying a consumer after a fix', () => {
  it('records the event and error it had stopped on', () => {
    given([]).when({ type: 'Retry', consumer, failure }).then([{ type: 'ConsumerRetryRequested', data: { consumer, failed_global_position: 41, error: failure.error } }]);
  });
  it('refuses when the consumer has not stopped, or is paused', () => {
    given([]).when({ type: 'Retry', consumer, failure: null }).thenRefused(/nothing to retry/);
    given([paused]).when({ type: 'Retry', consumer, failure }).thenRefused(/paused: resume it/);
  });
});

describe('rebuilding a projection', () => {
  it('requests a rebuild of a projection', () => {
    given([]).when({ type: 'RequestRebuild', consumer, rebuildId: 'r1', rebuildable: true }).then([requested('r1')]);
  });
  it('refuses a policy, and a second rebuild while one is unfinished', () => {
    given([]).when({ type: 'RequestRebuild', consumer: 'compensation', rebuildId: 'r1', rebuildable: false }).thenRefused(/is a policy/);
    given([requested('r1')]).when({ type: 'RequestRebuild', consumer, rebuildId: 'r2', rebuildable: true }).thenRefused(/already running/);
  });
  it('records the outcome once, and allows the next rebuild after it', () => {
    const done: ConsumerOperationEvent = { type: 'ProjectionRebuilt', data: { consumer, rebuild_id: 'r1', applied: 1200 } };
    given([requested('r1')]).when({ type: 'FinishRebuild', consumer, rebuildId: 'r1', outcome: { applied: 1200 } }).then([done]);
    given([requested('r1'), done]).when({ type: 'FinishRebuild', consumer, rebuildId: 'r1', outcome: { applied: 1200 } }).then([]);
    given([requested('r1'), done]).when({ type: 'RequestRebuild', consumer, rebuildId: 'r2', rebuildable: true }).then([requested('r2')]);
  });
  it('records a failed rebuild with its error', () => {
    given([requested('r1')])
      .when({ type: 'FinishRebuild', consumer, rebuildId: 'r1', outcome: { error: 'rebuild of wallet-ledger failed: boom' } })
      .then([{ type: 'ProjectionRebuildFailed', data: { consumer, rebuild_id: 'r1', error: 'rebuild of wallet-ledger failed: boom' } }]);
  });
});
