import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import jwt from '@fastify/jwt';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from '@fastify/type-provider-zod';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { authRoutes } from '../auth/routes';
import { eventLogRoutes } from '../audit/routes';
import { catalogueRoutes } from '../catalogue/routes';
import { catalogueAdminRoutes } from '../catalogue/admin-routes';
// Readable messages for every schema issue that has none of its own (the error mapper passes messages on).
import '../contracts/readable-issues';
import { compensationRoutes } from '../compensation/routes';
import type { Consumer } from '../core/consumers';
import { timeOrderedId } from '../core/ids';
import { genealogyRoutes } from '../genealogy/routes';
import { pointsRoutes } from '../points/routes';
import { incentiveRoutes } from '../incentives/routes';
import { incentiveAdminRoutes } from '../incentives/admin-routes';
import { membershipRoutes } from '../membership/routes';
import { adminMembersRoutes } from '../membership/admin-members-routes';
import { paymentRoutes } from '../payments/routes';
import { paymentAdminRoutes } from '../payments/admin-routes';
import { profileRoutes } from '../profile/routes';
import { purchaseRoutes } from '../purchases/routes';
import { pickupStatsRoutes } from '../purchases/pickup-stats-routes';
import { profitSharingRoutes } from '../profit-sharing/routes';
import { profitSharingAdminRoutes } from '../profit-sharing/admin-routes';
import { matchingRoutes } from '../matching/routes';
import { matchingAdminRoutes } from '../matching/admin-routes';
import { walletRoutes } from '../wallet/routes';
import { adminWithdrawalRoutes } from '../wallet/admin-routes';
import { adminPurchaseRoutes } from '../purchases/admin-routes';
import { settingsRoutes } from '../settings/routes';
import { stockistRoutes } from '../stockists/routes';
import { logVerificationRoutes } from '../log-verification/routes';
import { configureStoredFiles, mayServeStoredFile } from '../core/stored-files';
import type { AppServices } from './context';
import { registerErrorHandler } from './errors';
import { idempotency } from './idempotency';
import { registerInputGuard } from './input-guard';
import { registerSecurityHeaders } from './security-headers';
import { operationsRoutes } from './operations';
import { operatorsConsole } from '../operators/plugin';
import { registerListExports } from './list-export';

export type AppOptions = AppServices & {
  redis: Redis;
  consumers: readonly Consumer[];
  /** Request logging; off unless given (tests stay quiet). */
  httpLogger?: FastifyServerOptions['logger'];
};

/** The api: every capability's routes under /api, both web apps from the same origin. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.httpLogger ?? false,
    genReqId: () => timeOrderedId(),
    // Only the configured proxies may name the client's address (TRUST_PROXY): otherwise any caller
    // could pick its own address with X-Forwarded-For and step around every per-address limit.
    trustProxy: typeof options.config.trustProxy === 'number' ? hopsTrusted(options.config.trustProxy) : options.config.trustProxy,
    bodyLimit: 1_000_000,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('config', options.config);
  app.decorate('db', options.db);
  app.decorate('mailer', options.mailer);
  app.decorate('outbox', options.outbox);
  app.decorate('gateway', options.gateway);
  app.decorate('commands', options.commands);
  app.decorate('clock', options.clock);
  app.decorateRequest('account', null);
  app.decorateRequest('readAhead', null);
  registerErrorHandler(app);
  registerInputGuard(app);

  await registerSecurityHeaders(app, options.config);
  // One algorithm, pinned both ways: a token signed any other way (none, another HMAC, RS*) is refused.
  await app.register(jwt, { secret: options.config.JWT_SECRET, sign: { algorithm: 'HS256' }, verify: { algorithms: ['HS256'] } });
  await app.register(rateLimit, {
    global: false,
    // After body parsing: the limits are keyed by the name or e-mail being tried.
    hook: 'preHandler',
    redis: options.redis,
    nameSpace: `${options.config.QUEUE_PREFIX}:rate-limit:`,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      success: false,
      message: `Too many attempts. Please try again in ${Math.max(1, Math.ceil(context.ttl / 60_000))} minute(s).`,
    }),
  });
  await app.register(swagger, {
    openapi: { info: { title: 'Herbal Life Network portal API', version: '1.0.0' }, components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } } },
    transform: jsonSchemaTransform,
  });
  // The OpenAPI description is always built (the authorization and fuzz tests read it); its page is served only when configured.
  if (options.config.API_DOCS ?? options.config.NODE_ENV !== 'production') await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  await app.register(idempotency);
  // Files are read part by part in the handlers (core/uploads.ts), which check size and content.
  await app.register(multipart, { limits: { fileSize: 500_001, files: 5, fields: 100 } });

  // Before the routes: every simple-rest list it sees then also answers Accept: text/csv with all its rows.
  registerListExports(app, options.db);
  await app.register(operationsRoutes({ redis: options.redis, consumers: options.consumers }));
  await app.register(operatorsConsole({ redis: options.redis, consumers: options.consumers }));
  await app.register(
    async (api) => {
      await api.register(authRoutes);
      await api.register(membershipRoutes);
      await api.register(adminMembersRoutes);
      await api.register(paymentRoutes);
      await api.register(paymentAdminRoutes);
      await api.register(compensationRoutes);
      await api.register(catalogueRoutes);
      await api.register(catalogueAdminRoutes);
      await api.register(settingsRoutes);
      await api.register(eventLogRoutes);
      await api.register(profileRoutes);
      await api.register(walletRoutes);
      await api.register(adminWithdrawalRoutes);
      await api.register(adminPurchaseRoutes);
      await api.register(genealogyRoutes);
      await api.register(purchaseRoutes);
      await api.register(pickupStatsRoutes);
      await api.register(pointsRoutes);
      await api.register(incentiveRoutes);
      await api.register(incentiveAdminRoutes);
      await api.register(profitSharingRoutes);
      await api.register(profitSharingAdminRoutes);
      await api.register(matchingRoutes);
      await api.register(matchingAdminRoutes);
      await api.register(stockistRoutes);
      await api.register(logVerificationRoutes);
    },
    { prefix: '/api' },
  );
  await serveUploads(app, options.config);
  await serveWebApps(app, options.config);
  return app;
}

/** The nearest `hops` proxies are trusted (proxy-addr's hop count). */
function hopsTrusted(hops: number) {
  return (_address: string, hop: number) => hop < hops;
}

/**
 * Uploaded images at /storage/..., as the seeds' clients expect: catalogue images for anyone,
 * receipts and photos only with the signature the API put on their link (core/stored-files.ts).
 * Every file is sent as an image that cannot be sniffed into anything else or run as a page.
 */
async function serveUploads(app: FastifyInstance, config: AppServices['config']): Promise<void> {
  const root = path.resolve(config.UPLOAD_DIR);
  mkdirSync(root, { recursive: true });
  configureStoredFiles(config.JWT_SECRET);
  await app.register(fastifyStatic, {
    root,
    prefix: '/storage/',
    decorateReply: false,
    index: false,
    dotfiles: 'deny',
    allowedPath: (_pathName, _root, request) => mayServeStoredFile((request.raw.url ?? '').split('?')[0] ?? '', request.query as Record<string, unknown>),
    setHeaders: (response, filePath) => {
      const name = path.basename(filePath);
      response.setHeader('X-Content-Type-Options', 'nosniff');
      response.setHeader('Content-Disposition', `inline; filename="${name.replace(/[^A-Za-z0-9._-]/g, '_')}"`);
      response.setHeader('Content-Security-Policy', "default-src 'none'; sandbox");
      response.setHeader('Cache-Control', /^(receipts|photos)\//.test(path.relative(root, filePath).split(path.sep).join('/')) ? 'private, max-age=300' : 'public, max-age=86400');
    },
  });
}

/**
 * How long a browser keeps a file of a built web app. The build names every script and style under
 * assets/ after a hash of its content, so a changed file has a new name: those are kept a year
 * without asking again (a reload then costs no request per script). index.html and the files
 * with fixed names (favicon) are asked again each time (no-cache: a 304 when unchanged), so a new
 * build is seen at the next load.
 */
export function cacheHeaders(response: { setHeader: (name: string, value: string) => unknown }, filePath: string): void {
  const hashed = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.(js|css|woff2?|svg|png|jpe?g|webp)(\.(br|gz))?$/.test(filePath);
  response.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
}

/** Serves the built member app at / and the admin app at /admin (client-side routes fall back to index.html). */
async function serveWebApps(app: FastifyInstance, config: AppServices['config']): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../../..');
  const memberDist = config.WEB_MEMBER_DIST ?? path.join(root, 'web-member/dist');
  const adminDist = config.WEB_ADMIN_DIST ?? path.join(root, 'web-admin/dist');
  const haveMember = existsSync(path.join(memberDist, 'index.html'));
  const haveAdmin = existsSync(path.join(adminDist, 'index.html'));
  // Only the first registration may decorate reply.sendFile. Brotli or gzip files written beside
  // each script by the build are sent to browsers that accept them (preCompressed).
  const served = { index: false, wildcard: false, preCompressed: true, cacheControl: false, setHeaders: cacheHeaders } as const;
  if (haveMember) {
    await app.register(fastifyStatic, { root: memberDist, prefix: '/', decorateReply: true, ...served });
  }
  if (haveAdmin) {
    await app.register(fastifyStatic, { root: adminDist, prefix: '/admin/', decorateReply: !haveMember, ...served });
  }
  const adminPaths = /^\/(admin(\/|$)|admin-login|admin-two-factor-auth|admin-reset-password)/;
  app.setNotFoundHandler(async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname.startsWith('/api/') || request.method !== 'GET' || /\.[a-z0-9]+$/i.test(pathname)) {
      return reply.status(404).send({ success: false, message: `No such path: ${request.method} ${pathname}` });
    }
    const dist = adminPaths.test(pathname) ? (haveAdmin ? adminDist : null) : haveMember ? memberDist : null;
    if (!dist) return reply.status(404).send({ success: false, message: 'The web app is not built yet: run npm run build.' });
    return reply.type('text/html').sendFile('index.html', dist);
  });
}
