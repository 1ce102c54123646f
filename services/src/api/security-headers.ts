import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../core/config';

/**
 * Response headers of every answer (docs/security.md, "Headers and exposure"):
 *
 * - A Content-Security-Policy both web apps run under: scripts only from this origin, styles from
 *   this origin plus the inline <style> elements MUI (emotion) writes, images from this origin,
 *   data: and blob: (a photo's preview before upload), calls only to this origin. The card
 *   provider's checkout is the one frame from elsewhere (the gateway's origin and CHECKOUT_ORIGINS);
 *   it returns the frame to our /payment-complete, so pages may be framed by this origin only.
 * - nosniff, Referrer-Policy strict-origin-when-cross-origin, X-Frame-Options SAMEORIGIN, and
 *   Strict-Transport-Security when the public address is https.
 * - CORS: same origin only unless CORS_ORIGINS names the origins allowed.
 */
export function contentSecurityPolicy(config: Pick<Config, 'PAYSTACK_BASE_URL' | 'CHECKOUT_ORIGINS'>): Record<string, string[]> {
  const checkout = [originOf(config.PAYSTACK_BASE_URL), ...config.CHECKOUT_ORIGINS.split(',').map((o) => originOf(o.trim()))].filter((o): o is string => !!o);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    frameSrc: ["'self'", ...new Set(checkout)],
    frameAncestors: ["'self'"],
    formAction: ["'self'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    manifestSrc: ["'self'"],
    workerSrc: ["'self'", 'blob:'],
  };
}

function originOf(url: string): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  const https = config.publicUrl.startsWith('https://');
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    frameguard: { action: 'sameorigin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The app embeds nothing cross-origin that would need CORP from others; COEP would block the checkout frame.
    crossOriginEmbedderPolicy: false,
    // The checkout page is opened in a frame; same-origin-allow-popups keeps a provider's popup working.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  const allowed = config.CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean);
  await app.register(cors, { origin: allowed.length > 0 ? allowed : false, exposedHeaders: ['Content-Range'] });
}
