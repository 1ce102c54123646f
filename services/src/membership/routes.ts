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
import { sendRegistrationAttemptNotice } from './mails';
import { memberDecider } from './decider';
import { memberStream } from './events';
import { projectMembers } from './projections';
import { reinstateRegistration } from './expiry';
import { findMember } from './queries';
import { companyDefaultPreference, explainPlacement, resolvePlacement } from './placement';
import { placementPreference, placementPreferenceBody, placementPreferenceView, placementPreview, placementPreviewQuery } from '../contracts/placement';
import { getSettings } from '../settings/projections';

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
      const registration = await registerMember(app.commands, { ...body, passwordHash }, requestMetadata(request, now));
      const memberId = registration.memberId;
      // The code and its mail are written together; the mail goes out from the outbox. An address
      // that already has an account gets a notice instead, and the caller the same answer
      // (docs/security-auth.md A6): whether an address is registered is its owner's business.
      if (registration.outcome === 'registered') await sendCode(app, { kind: 'member', id: memberId, email: body.email, name: body.first_name }, 'email_confirmation');
      else await sendRegistrationAttemptNotice(app, body.email);
      return { success: true, message: authMessages.registered, data: { uuid: memberId, email: body.email, username: body.username } };
    },
  );

  // Where a registration would go, before it is submitted (the registration form shows it).
  app.get(
    '/auth/placement-preview',
    {
      config: { rateLimit: { max: 120, timeWindow: '15 minutes' } },
      schema: { tags: ['auth'], querystring: placementPreviewQuery, response: { 200: envelope(placementPreview) } },
    },
    async (request) => {
      const resolved = await resolvePlacement(app.db, request.query);
      return {
        success: true,
        message: 'Placement preview',
        data: {
          placement: resolved.placement.username,
          leg: resolved.leg,
          sponsor: resolved.sponsor.username,
          spillover: resolved.spillover,
          requested_placement: resolved.requestedPlacement.username,
          preference: resolved.preference,
          explanation: explainPlacement(resolved),
        },
      };
    },
  );

  const memberParams = z.object({ id: z.uuid({ error: 'Member not found.' }) });
  app.get(
    '/users/:id/placement-preference',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['users'], params: memberParams, response: { 200: envelope(placementPreferenceView) } } },
    async (request) => {
      const member = await findMember(app.db, request.params.id);
      if (!member) throw new NotFound('Member not found.');
      const companyDefault = companyDefaultPreference(await getSettings(app.db));
      const own = member.placement_preference ? placementPreference.parse(member.placement_preference) : null;
      return { success: true, message: 'Placement preference', data: { preference: own, company_default: companyDefault, effective: own ?? companyDefault } };
    },
  );

  app.put(
    '/users/:id/placement-preference',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['users'], params: memberParams, body: placementPreferenceBody, response: { 200: envelope(z.null()) } } },
    async (request) => {
      const member = await findMember(app.db, request.params.id);
      if (!member) throw new NotFound('Member not found.');
      await runInTransaction(app.commands, async (trx) => {
        const { events } = await decideOnStream(trx, memberStream(member.id), memberDecider, { type: 'ChangePlacementPreference', data: { member_id: member.id, preference: request.body.preference } }, requestMetadata(request, app.clock()));
        await projectMembers(trx, events);
      });
      return { success: true, message: 'Placement preference saved.', data: null };
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
      return { success: true, message: request.body.enable_2fa ? authMessages.twoFactorOn : authMessages.twoFactorOff, data: null };
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
