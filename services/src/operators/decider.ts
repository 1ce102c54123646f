import type { Decider } from '../core/command';
import { RuleViolation } from '../core/errors';
import type { ConsumerOperationEvent } from './events';

/**
 * The rules of the operators' console for one consumer (docs/operations.md). What the runner
 * knows (stopped on an event, a projection with tables) comes in the command, read from the
 * checkpoint and the consumer list; what operators did is this stream.
 */
export type ConsumerOperationsState = { paused: boolean; rebuilding: string | null };

export type ConsumerOperationCommand =
  | { type: 'Pause'; consumer: string; reason: string | null }
  | { type: 'Resume'; consumer: string }
  | { type: 'Retry'; consumer: string; failure: { globalPosition: number | null; error: string } | null }
  | { type: 'RequestRebuild'; consumer: string; rebuildId: string; rebuildable: boolean }
  | { type: 'FinishRebuild'; consumer: string; rebuildId: string; outcome: { applied: number } | { error: string } };

export function evolveConsumerOperations(state: ConsumerOperationsState, event: ConsumerOperationEvent): ConsumerOperationsState {
  switch (event.type) {
    case 'ConsumerPaused':
      return { ...state, paused: true };
    case 'ConsumerResumed':
      return { ...state, paused: false };
    case 'ConsumerRetryRequested':
      return state;
    case 'ProjectionRebuildRequested':
      return { ...state, rebuilding: event.data.rebuild_id };
    case 'ProjectionRebuilt':
    case 'ProjectionRebuildFailed':
      return state.rebuilding === event.data.rebuild_id ? { ...state, rebuilding: null } : state;
    default: {
      const unknownEvent: never = event;
      return unknownEvent;
    }
  }
}

export function decideConsumerOperation(command: ConsumerOperationCommand, state: ConsumerOperationsState): ConsumerOperationEvent[] {
  switch (command.type) {
    case 'Pause':
      if (state.paused) throw new RuleViolation(`${command.consumer} is already paused.`);
      return [{ type: 'ConsumerPaused', data: { consumer: command.consumer, reason: command.reason } }];
    case 'Resume':
      if (!state.paused) throw new RuleViolation(`${command.consumer} is not paused.`);
      return [{ type: 'ConsumerResumed', data: { consumer: command.consumer } }];
    case 'Retry':
      if (state.paused) throw new RuleViolation(`${command.consumer} is paused: resume it to let it run.`);
      if (!command.failure) throw new RuleViolation(`${command.consumer} has not stopped on an event: there is nothing to retry.`);
      return [{ type: 'ConsumerRetryRequested', data: { consumer: command.consumer, failed_global_position: command.failure.globalPosition, error: command.failure.error } }];
    case 'RequestRebuild':
      if (!command.rebuildable) throw new RuleViolation(`${command.consumer} is a policy: it appends events and has no tables to rebuild.`);
      if (state.rebuilding) throw new RuleViolation(`A rebuild of ${command.consumer} is already running.`);
      return [{ type: 'ProjectionRebuildRequested', data: { consumer: command.consumer, rebuild_id: command.rebuildId } }];
    case 'FinishRebuild':
      // The worker may finish a run twice (a retried job): the second finds it finished and records nothing.
      if (state.rebuilding !== command.rebuildId) return [];
      return 'error' in command.outcome
        ? [{ type: 'ProjectionRebuildFailed', data: { consumer: command.consumer, rebuild_id: command.rebuildId, error: command.outcome.error } }]
        : [{ type: 'ProjectionRebuilt', data: { consumer: command.consumer, rebuild_id: command.rebuildId, applied: command.outcome.applied } }];
    default: {
      const unknownCommand: never = command;
      return unknownCommand;
    }
  }
}

export const consumerOperationsDecider: Decider<ConsumerOperationsState, ConsumerOperationCommand, ConsumerOperationEvent> = {
  initialState: () => ({ paused: false, rebuilding: null }),
  evolve: evolveConsumerOperations,
  decide: decideConsumerOperation,
};
