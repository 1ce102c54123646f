import type { FastifyPluginAsyncZod } from '@fastify/type-provider-zod';
import { z } from 'zod';
import { requestMetadata } from '../api/context';
import { authenticate, requireAdmin, requireSignedIn } from '../auth/guards';
import { idParams } from '../contracts/catalogue';
import { envelope } from '../contracts/http';
import {
  type BonusTableKind,
  type SettingName,
  bonusGenerationBody,
  bonusGenerationRow,
  publicSettingNames,
  settingNames,
  settings,
  settingsMessages,
  settingsUpdateBody,
  singleSetting,
} from '../contracts/settings';
import { runInTransaction } from '../core/command';
import { NotFound, RuleViolation } from '../core/errors';
import { changeSettings, setBonusGenerations } from './commands';
import { getSettings } from './projections';
import { listBonusTable, settingsToApi } from './queries';

/** The seeds' paths of the four generation tables (seed 002 §7): the list, and the update of one row. */
const bonusTablePaths: Record<BonusTableKind, { list: string; update: string }> = {
  referral: { list: '/settings/referral-bonus', update: '/settings/update-referral-bonus/:id' },
  upgrade: { list: '/settings/upgrade-bonus', update: '/settings/upgrade-bonus/:id/update' },
  unilevel: { list: '/settings/unilevel-bonus', update: '/settings/unilevel-bonus/:id/update' },
  'stockist-upline': { list: '/settings/stockist-upline-bonus', update: '/settings/stockist-upline-bonus/:id' },
};

/**
 * The settings record and the bonus generation tables. Every change is an event naming the
 * fields changed, their previous values and (in metadata) the admin.
 */
export const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/settings/all', { preHandler: requireSignedIn, schema: { tags: ['settings'], response: { 200: envelope(settings) } } }, async () => ({
    success: true,
    message: 'Settings',
    data: settingsToApi(await getSettings(app.db)),
  }));

  app.get(
    '/settings/:name',
    {
      // The front-page notice is shown before sign-in; every other setting needs an account.
      preHandler: async (request) => {
        if (!publicSettingNames.includes(request.params.name as SettingName)) await authenticate(request);
      },
      schema: { tags: ['settings'], params: z.object({ name: z.string() }), response: { 200: envelope(singleSetting) } },
    },
    async (request) => {
      const name = request.params.name as SettingName;
      if (!settingNames.includes(name)) throw new NotFound(settingsMessages.notFound);
      const all = settingsToApi(await getSettings(app.db));
      return { success: true, message: 'Setting', data: { [name]: all[name] } };
    },
  );

  app.put(
    '/settings/update',
    { preHandler: requireAdmin('write'), schema: { tags: ['settings'], body: settingsUpdateBody, response: { 200: envelope(settings) } } },
    async (request) => {
      const body = request.body;
      const sent = Object.keys(body).filter((key) => body[key as keyof typeof body] !== undefined);
      if (sent.length === 0) throw new RuleViolation(settingsMessages.nothingToUpdate);
      const metadata = requestMetadata(request, app.clock());
      await runInTransaction(app.commands, (trx) => changeSettings(trx, body, metadata));
      const message =
        sent.length === 1 && body.show_front_page_message !== undefined
          ? body.show_front_page_message
            ? settingsMessages.frontPageEnabled
            : settingsMessages.frontPageDisabled
          : settingsMessages.updated;
      return { success: true, message, data: settingsToApi(await getSettings(app.db)) };
    },
  );

  for (const [kind, paths] of Object.entries(bonusTablePaths) as Array<[BonusTableKind, { list: string; update: string }]>) {
    app.get(paths.list, { preHandler: requireAdmin('read'), schema: { tags: ['settings'], response: { 200: envelope(z.array(bonusGenerationRow)) } } }, async () => ({
      success: true,
      message: 'Bonus settings',
      data: await listBonusTable(app.db, kind),
    }));

    app.put(
      paths.update,
      { preHandler: requireAdmin('write'), schema: { tags: ['settings'], params: idParams, body: bonusGenerationBody, response: { 200: envelope(bonusGenerationRow) } } },
      async (request) => {
        const packageId = request.params.id;
        const metadata = requestMetadata(request, app.clock());
        await runInTransaction(app.commands, (trx) => setBonusGenerations(trx, kind, packageId, request.body, metadata));
        const [row] = await listBonusTable(app.db, kind, { packageId });
        return { success: true, message: settingsMessages.updated, data: row! };
      },
    );
  }
};
