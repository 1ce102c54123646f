import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Consumer } from '../core/consumers';
import { createDoorbell } from '../core/wakeups';
import { registerBullBoard } from './bull-board';
import { operationsQueue } from './rebuild-jobs';
import { workerQueueNames } from './queues';
import { consumerRoutes } from './routes';

/** The operators' console in the api (docs/operations.md): the Consumers page's paths and Bull Board. */
export function operatorsConsole(options: { redis: Redis; consumers: readonly Consumer[] }): FastifyPluginAsync {
  return async (app) => {
    const doorbell = createDoorbell(app.config.REDIS_URL, app.config.QUEUE_PREFIX);
    const operations = operationsQueue(app.config.REDIS_URL, app.config.QUEUE_PREFIX);
    app.addHook('onClose', async () => {
      await doorbell.close().catch(() => {});
      await operations.close().catch(() => {});
    });
    await app.register(consumerRoutes({ ...options, doorbell, operations }), { prefix: '/api' });
    await registerBullBoard(app, { queueNames: workerQueueNames });
  };
}
