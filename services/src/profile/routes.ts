import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { requireAdmin, requireMember, requireSelfOrAdmin, requireSignedIn } from '../auth/guards';
import { envelope } from '../contracts/http';
import {
  bankEditableBody,
  bankListItem,
  createProfileFields,
  frontPageMessage,
  inviteGuestBody,
  memberListRow,
  memberProfile,
  profileDetails,
  profileMessages,
  profileRefusals,
  sendMessageBody,
  updateBankBody,
  updateProfileFields,
  updateUserBody,
  verifiedBank,
  verifyBankBody,
} from '../contracts/profile';
import { RuleViolation } from '../core/errors';
import { parseFormFields, readForm, storeImage } from '../core/uploads';
import { findMemberByUsername, isSelfOrPlacementAncestor } from '../membership/queries';
import { getSettings } from '../settings/projections';
import { createBankDirectory } from './banks';
import { handleProfileCommand, profileRead } from './commands';
import { invitationMail, memberMessageMail, referralLink } from './mails';
import { findProfile, memberListRowOf, memberNotFound, memberProfileOf, profileDetailsOf } from './queries';

const memberParams = z.object({ id: z.uuid({ error: memberNotFound }) });
const messageOnly = envelope(z.null());

/** Invitations mail strangers: a few per member per hour keeps the company's mail off spam lists. */
const INVITATIONS_PER_HOUR = 10;
/** Each verification is a paid, rate-limited call to the gateway. */
const VERIFICATIONS_PER_QUARTER_HOUR = 30;
const byAccount = (request: FastifyRequest) => `${request.account?.kind ?? 'ip'}:${request.account?.id ?? request.ip}`;

export const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  const bankDirectory = createBankDirectory(
    { listBanks: () => app.gateway.listBanks(), resolveAccount: (accountNumber, bankCode) => app.gateway.resolveAccount(accountNumber, bankCode) },
    app.clock,
  );
  const actorKind = (request: FastifyRequest) => (request.account?.kind === 'admin' ? 'admin' : 'member');

  // ── Reading ─────────────────────────────────────────────────────────────────────────────
  app.get(
    '/users/:id/profile-details',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['users'], params: memberParams, response: { 200: envelope(profileDetails.nullable()) } } },
    async (request) => {
      const data = await profileDetailsOf(app.db, request.params.id);
      return { success: true, message: data ? profileMessages.profile : profileMessages.noProfile, data };
    },
  );

  app.get(
    '/users/:id/profile',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['users'], params: memberParams, response: { 200: envelope(memberProfile) } } },
    async (request) => ({ success: true, message: profileMessages.profile, data: await memberProfileOf(app.db, request.params.id) }),
  );

  app.get(
    '/users/:id/user',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['users'], params: memberParams, response: { 200: envelope(memberListRow) } } },
    async (request) => ({ success: true, message: profileMessages.member, data: await memberListRowOf(app.db, request.params.id) }),
  );

  app.get(
    '/front-page-message',
    { schema: { tags: ['settings'], response: { 200: envelope(frontPageMessage) } } },
    async () => {
      const settings = await getSettings(app.db);
      return {
        success: true,
        message: profileMessages.frontPageMessage,
        data: { show: settings.show_front_page_message, subject: settings.home_page_message_subject, message: settings.home_page_message },
      };
    },
  );

  // ── Profile and names ───────────────────────────────────────────────────────────────────
  app.post(
    '/users/create-profile',
    { preHandler: requireMember, schema: { tags: ['users'], consumes: ['multipart/form-data', 'application/json'], response: { 200: messageOnly } } },
    async (request) => {
      const { fields, files } = await readForm(request);
      const input = parseFormFields(createProfileFields, fields);
      const photoPath = files.image ? await storeImage(app.config.UPLOAD_DIR, 'photos', files.image, 'image') : null;
      await handleProfileCommand(
        app.commands,
        request.account!.id,
        (member, current) => ({
          type: 'SaveProfile',
          data: { member_id: member.id, address: input.address, gender: input.gender, new_photo_path: photoPath, details: { ...current, phone: input.phone }, current_details: current },
        }),
        requestMetadata(request, app.clock()),
      );
      return { success: true, message: profileMessages.dataUpdated, data: null };
    },
  );

  app.post(
    '/users/:id/update-profile',
    { preHandler: requireSelfOrAdmin('id'), schema: { tags: ['users'], consumes: ['multipart/form-data', 'application/json'], params: memberParams, response: { 200: messageOnly } } },
    async (request) => {
      const { fields, files } = await readForm(request);
      const input = parseFormFields(updateProfileFields, fields);
      const photoPath = files.image ? await storeImage(app.config.UPLOAD_DIR, 'photos', files.image, 'image') : null;
      await handleProfileCommand(
        app.commands,
        request.params.id,
        (member, current) => ({
          type: 'SaveProfile',
          data: {
            member_id: member.id,
            address: input.address,
            gender: input.gender,
            new_photo_path: photoPath,
            details: { first_name: input.first_name, last_name: input.last_name, phone: input.phone },
            current_details: current,
          },
        }),
        requestMetadata(request, app.clock()),
      );
      return { success: true, message: profileMessages.dataUpdated, data: null };
    },
  );

  app.put(
    '/users/:id/update',
    {
      preHandler: requireSelfOrAdmin('id'),
      // The profile's read rides in the session check's statement (auth/guards.ts).
      config: { readAhead: (request) => profileRead((request.params as { id?: string }).id) },
      schema: { tags: ['users'], params: memberParams, body: updateUserBody, response: { 200: messageOnly } },
    },
    async (request) => {
      await handleProfileCommand(
        app.commands,
        request.params.id,
        (member, current) => ({ type: 'UpdateMemberDetails', data: { member_id: member.id, details: request.body, current_details: current } }),
        requestMetadata(request, app.clock()),
        { ahead: request.readAhead },
      );
      return { success: true, message: profileMessages.dataUpdated, data: null };
    },
  );

  // ── Banks and the withdrawal account ────────────────────────────────────────────────────
  app.get(
    '/payments/banks',
    { preHandler: requireSignedIn, schema: { tags: ['payments'], response: { 200: envelope(z.array(bankListItem)) } } },
    async () => {
      const banks = await bankDirectory.banks();
      return { success: true, message: profileMessages.banks, data: banks.map((bank) => ({ bank: bank.name, code: bank.code })) };
    },
  );

  app.post(
    '/payments/verify-bank-details',
    {
      preHandler: requireSignedIn,
      config: { rateLimit: { max: VERIFICATIONS_PER_QUARTER_HOUR, timeWindow: '15 minutes', keyGenerator: byAccount } },
      schema: { tags: ['payments'], body: verifyBankBody, response: { 200: envelope(verifiedBank) } },
    },
    async (request) => {
      const { bank_name, bank_code, account_number } = request.body;
      const data = await bankDirectory.resolve({ bankName: bank_name, bankCode: bank_code, accountNumber: account_number, accountField: 'account_number' });
      return { success: true, message: profileMessages.bankVerified, data };
    },
  );

  app.put(
    '/users/:id/update-bank-details',
    {
      preHandler: requireSelfOrAdmin('id'),
      config: { rateLimit: { max: VERIFICATIONS_PER_QUARTER_HOUR, timeWindow: '15 minutes', keyGenerator: byAccount } },
      schema: { tags: ['users'], params: memberParams, body: updateBankBody, response: { 200: messageOnly } },
    },
    async (request) => {
      const by = actorKind(request);
      // Refuse a locked member before spending a gateway call; the decider decides again below.
      if (by === 'member' && (await findProfile(app.db, request.params.id))?.bank_editable === false) {
        throw new RuleViolation(profileRefusals.bankLocked, 'bank_account_number');
      }
      const { bank_name, bank_code, bank_account_number } = request.body;
      const account = await bankDirectory.resolve({ bankName: bank_name, bankCode: bank_code, accountNumber: bank_account_number, accountField: 'bank_account_number' });
      await handleProfileCommand(
        app.commands,
        request.params.id,
        (member) => ({ type: 'ChangeBankDetails', data: { member_id: member.id, account, by } }),
        requestMetadata(request, app.clock()),
      );
      return { success: true, message: profileMessages.bankUpdated, data: null };
    },
  );

  app.put(
    '/users/:id/bank-editable',
    { preHandler: requireAdmin('write'), schema: { tags: ['users'], params: memberParams, body: bankEditableBody, response: { 200: messageOnly } } },
    async (request) => {
      const { bank_editable } = request.body;
      await handleProfileCommand(
        app.commands,
        request.params.id,
        (member) => ({ type: 'SetBankEditability', data: { member_id: member.id, bank_editable } }),
        requestMetadata(request, app.clock()),
      );
      return { success: true, message: bank_editable ? profileMessages.bankEditableEnabled : profileMessages.bankEditableDisabled, data: null };
    },
  );

  // ── Mails ───────────────────────────────────────────────────────────────────────────────
  app.post(
    '/users/:id/invite-guest',
    {
      preHandler: [requireMember, requireSelfOrAdmin('id')],
      config: { rateLimit: { max: INVITATIONS_PER_HOUR, timeWindow: '1 hour', keyGenerator: byAccount } },
      schema: { tags: ['users'], params: memberParams, body: inviteGuestBody, response: { 200: messageOnly } },
    },
    async (request) => {
      const memberId = request.params.id;
      const { email, referrer } = request.body;
      // A placement other than the member: the guest is placed there and the member sponsors them.
      let placement: string | null = null;
      if (referrer) {
        const named = await findMemberByUsername(app.db, referrer);
        if (!named) throw new RuleViolation(profileRefusals.referrerUnknown, 'referrer');
        if (named.id !== memberId) {
          if (!(await isSelfOrPlacementAncestor(app.db, named.id, memberId))) throw new RuleViolation(profileRefusals.referrerOutsideNetwork, 'referrer');
          placement = named.username;
        }
      }
      const linkFor = (username: string) =>
        referralLink(app.config.publicUrl, placement ? { placement, sponsor: username } : { placement: username, sponsor: null });
      const { member } = await handleProfileCommand(
        app.commands,
        memberId,
        (member) => ({
          type: 'RecordGuestInvitation',
          data: { member_id: member.id, guest_email: email, referrer: placement ?? member.username, placer: placement ? member.username : null, link: linkFor(member.username) },
        }),
        requestMetadata(request, app.clock()),
      );
      await app.mailer.send(invitationMail(email, `${member.first_name} ${member.last_name}`, linkFor(member.username)));
      return { success: true, message: profileMessages.friendInvited, data: null };
    },
  );

  app.post(
    '/users/:id/send-message',
    { preHandler: requireAdmin('write'), schema: { tags: ['users'], params: memberParams, body: sendMessageBody, response: { 200: messageOnly } } },
    async (request) => {
      const { subject, body } = request.body;
      const { member } = await handleProfileCommand(
        app.commands,
        request.params.id,
        (member) => ({ type: 'RecordMemberMessaged', data: { member_id: member.id, to: member.email, subject, body } }),
        requestMetadata(request, app.clock()),
      );
      await app.mailer.send(memberMessageMail(member.email, member.first_name, subject, body));
      return { success: true, message: profileMessages.messageSent, data: null };
    },
  );
};
