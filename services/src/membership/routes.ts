import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { authMessages, registerBody, toggleTwoFactorBody } from '../contracts/auth';
import { envelope } from '../contracts/http';
import { decideOnStream, runInTransaction } from '../core/command';
import { NotFound } from '../core/errors';
import { requestMetadata } from '../api/context';
import { sendCode } from '../auth/code-mails';
import { requireAdmin, requireSelfOrAdmin } from '../auth/guards';
import { hashPassword } from '../auth/passwords';
import { registerMember } from './commands';
import { memberDecider } from './decider';
import { memberStream } from './events';
import { projectMembers } from './projections';
import { reinstateRegistration } from './expiry';
import { findMember } from './queries';

export const membershipRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/auth/register',
    {
      config: { rateLimit: { max: app.config.REGISTRATIONS_PER_ADDRESS, timeWindow: '15 minutes' } },
      schema: { tags: ['auth'], body: registerBody, response: { 200: envelope(z.object({ uuid: z.string(), email: z.string(), username: z.string() })) } },
    },
    async (request) => {
      const body = request.body;
      // Hash before the transaction: argon2 takes tens of milliseconds that a transaction must not hold.
      const passwordHash = await hashPassword(body.password);
      const now = app.clock();
      const { memberId } = await registerMember(app.commands, { ...body, passwordHash }, requestMetadata(request, now));
      // The code and its mail are written together; the mail goes out from the outbox.
      await sendCode(app, { kind: 'member', id: memberId, email: body.email, name: body.first_name }, 'email_confirmation');
      return { success: true, message: authMessages.registered, data: { uuid: memberId, email: body.email, username: body.username } };
    },
  );

  app.put(
    '/users/:id/toggle-2fa',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['users'], params: z.object({ id: z.uuid({ error: 'Member not found.' }) }), body: toggleTwoFactorBody, response: { 200: envelope(z.null()) } } },
    async (request) => {
      const member = await findMember(app.db, request.params.id);
      if (!member) throw new NotFound('Member not found.');
      await runInTransaction(app.commands, async (trx) => {
        const { events } = await decideOnStream(trx, memberStream(member.id), memberDecider, { type: 'ChangeTwoFactor', data: { member_id: member.id, enabled: request.body.enable_2fa } }, requestMetadata(request, app.clock()));
        await projectMembers(trx, events);
      });
      return { success: true, message: authMessages.twoFactorToggled, data: null };
    },
  );

  app.post(
    '/users/:id/reinstate',
    { preHandler: requireAdmin('write'), schema: { tags: ['users'], params: z.object({ id: z.uuid({ error: 'Member not found.' }) }), response: { 200: envelope(z.null()) } } },
    async (request) => {
      await reinstateRegistration(app.commands, request.params.id, requestMetadata(request, app.clock()));
      return { success: true, message: 'Registration reinstated successfully', data: null };
    },
  );
};
