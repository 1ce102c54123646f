import { CONSUMER_QUEUE } from '../core/wakeups';
import { LOG_VERIFICATION_QUEUE } from '../log-verification/jobs';
import { MAIL_QUEUE } from '../notifications/outbox';
import { SCHEDULE_QUEUE } from '../worker/schedules';
import { OPERATIONS_QUEUE } from './rebuild-jobs';

/** Every BullMQ queue the worker serves: Bull Board shows them and /metrics counts their jobs. */
export const workerQueueNames = [CONSUMER_QUEUE, MAIL_QUEUE, SCHEDULE_QUEUE, OPERATIONS_QUEUE, LOG_VERIFICATION_QUEUE];
