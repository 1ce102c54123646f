import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import type { Redis } from 'ioredis';
import { requestMetadata } from '../api/context';
import { requireAdmin } from '../auth/guards';
import { envelope, errorBody } from '../contracts/http';
import { consumerName, consumersOverview, pauseBody, readModelName } from '../contracts/operators';
import type { Consumer } from '../core/consumers';
import { NotFound } from '../core/errors';
import type { Doorbell } from '../core/wakeups';
import { consumerTarget, pauseConsumer, requestRebuild, resumeConsumer, retryConsumer } from './commands';
import { readModelStream } from './events';
import { readModels } from '../read-models';
import { consumersOverview as readOverview } from './queries';
import { enqueueRebuild, type RebuildJob } from './rebuild-jobs';
import type { Queue } from 'bullmq';
import { z } from 'zod';

/**
 * The Consumers page's paths (docs/operations.md). Reading is for admins and finance staff;
 * pause, resume, retry and rebuild are admin writes, each recorded as an event with the admin.
 */
export function consumerRoutes(options: { redis: Redis; consumers: readonly Consumer[]; doorbell: Doorbell; operations: Queue<RebuildJob> }): FastifyPluginAsyncZod {
  return async (app) => {
    const byName = new Map(options.consumers.map((c) => [c.name, c]));
    const find = (name: string) => {
      const consumer = byName.get(name);
      if (!consumer) throw new NotFound(`There is no consumer named ${name}.`);
      return consumer;
    };
    const done = envelope(z.object({ consumer: z.string() }));

    app.get(
      '/admin/consumers',
      { preHandler: requireAdmin('read'), schema: { tags: ['admin'], response: { 200: envelope(consumersOverview) } } },
      async () => ({ success: true, message: 'Consumers', data: await readOverview(app.db, options.redis, app.config.QUEUE_PREFIX, options.consumers, readModels) }),
    );

    app.post(
      '/admin/consumers/:name/pause',
      { preHandler: requireAdmin('write'), schema: { tags: ['admin'], params: consumerName, body: pauseBody.optional(), response: { 200: done, 404: errorBody, 422: errorBody } } },
      async (request) => {
        const consumer = find(request.params.name);
        await pauseConsumer(app.commands, consumer, request.body?.reason || null, requestMetadata(request, app.clock()));
        return { success: true, message: `Paused ${consumer.name}. It reads no event until it is resumed.`, data: { consumer: consumer.name } };
      },
    );

    app.post(
      '/admin/consumers/:name/resume',
      { preHandler: requireAdmin('write'), schema: { tags: ['admin'], params: consumerName, response: { 200: done, 404: errorBody, 422: errorBody } } },
      async (request) => {
        const consumer = find(request.params.name);
        await resumeConsumer(app.commands, consumer, requestMetadata(request, app.clock()));
        await options.doorbell.ring([consumer.name]).catch((error) => request.log.warn({ err: error }, 'could not ring the consumer'));
        return { success: true, message: `Resumed ${consumer.name}. It carries on from its checkpoint.`, data: { consumer: consumer.name } };
      },
    );

    app.post(
      '/admin/consumers/:name/retry',
      { preHandler: requireAdmin('write'), schema: { tags: ['admin'], params: consumerName, response: { 200: done, 404: errorBody, 422: errorBody } } },
      async (request) => {
        const consumer = find(request.params.name);
        const { failedAt } = await retryConsumer(app.commands, consumer, requestMetadata(request, app.clock()));
        await options.doorbell.ring([consumer.name]).catch((error) => request.log.warn({ err: error }, 'could not ring the consumer'));
        const at = failedAt === null ? '' : ` from event #${failedAt}`;
        return { success: true, message: `Retrying ${consumer.name}${at}. If the fix is deployed it carries on; otherwise it stops there again.`, data: { consumer: consumer.name } };
      },
    );

    app.post(
      '/admin/consumers/:name/rebuild',
      { preHandler: requireAdmin('write'), schema: { tags: ['admin'], params: consumerName, response: { 200: envelope(z.object({ consumer: z.string(), rebuild_id: z.string() })), 404: errorBody, 422: errorBody } } },
      async (request) => {
        const consumer = find(request.params.name);
        const { rebuildId } = await requestRebuild(app.commands, consumer, requestMetadata(request, app.clock()));
        // If Redis is unreachable now, a worker queues it again at its next heartbeat (rebuild-jobs.ts).
        await enqueueRebuild(options.operations, { rebuildId, consumer: consumer.name }).catch((error) => request.log.warn({ err: error }, 'could not queue the rebuild'));
        return {
          success: true,
          message: `Rebuilding ${consumer.name} from the first event. Its tables keep serving until the rebuilt ones are swapped in.`,
          data: { consumer: consumer.name, rebuild_id: rebuildId },
        };
      },
    );

    // Any read model of the registry (read-models.ts), inline or asynchronous: an asynchronous one
    // is the same rebuild as its consumer's (same stream, so one at a time either way).
    app.post(
      '/admin/read-models/:name/rebuild',
      { preHandler: requireAdmin('write'), schema: { tags: ['admin'], params: readModelName, response: { 200: envelope(z.object({ read_model: z.string(), rebuild_id: z.string() })), 404: errorBody, 422: errorBody } } },
      async (request) => {
        const model = readModels.find((m) => m.name === request.params.name);
        if (!model) throw new NotFound(`There is no read model named ${request.params.name}.`);
        const target = model.consumer ? consumerTarget(model.consumer) : { name: model.name, stream: readModelStream(model.name), rebuildable: true };
        const { rebuildId } = await requestRebuild(app.commands, target, requestMetadata(request, app.clock()));
        await enqueueRebuild(options.operations, { rebuildId, consumer: model.name }).catch((error) => request.log.warn({ err: error }, 'could not queue the rebuild'));
        return {
          success: true,
          message: `Rebuilding ${model.name} from the first event. Its tables keep serving until the rebuilt ones are swapped in.`,
          data: { read_model: model.name, rebuild_id: rebuildId },
        };
      },
    );
  };
}
