import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isStorableText } from '../contracts/fields';
import { RuleViolation } from '../core/errors';

/**
 * The checks every request passes before its route's own schema, so no route can forget them
 * (docs/security.md, "Hostile input"):
 *
 * - JSON bodies nest at most MAX_DEPTH levels (a 50,000-deep array costs the parser and every
 *   validator a deep recursion); deeper bodies answer 400 before they are parsed.
 * - No text anywhere in the path, query or body (keys included) holds a NUL or other control
 *   character or a lone UTF-16 surrogate: PostgreSQL cannot store them (a 500 before this) and a
 *   screen should not show them. They answer 422 with the field's name.
 *
 * The routes' zod schemas check the same on each text field (`text()` in contracts/fields.ts);
 * this is the net under routes whose fields are read in the handler (multipart forms, JSON
 * strings inside query parameters are checked where they are parsed).
 */
export const MAX_JSON_DEPTH = 32;

/** How deeply a JSON text nests, read without parsing it (strings skipped, escapes honoured). */
export function jsonDepth(text: string, stopAfter = MAX_JSON_DEPTH + 1): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest >= stopAfter) return deepest;
      }
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return deepest;
}

/** The first place in a parsed value whose text (or key) cannot be stored, as a field path; null when all is well. */
export function findUnstorableText(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return isStorableText(value) ? null : path || 'value';
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return null;
  if (depth > MAX_JSON_DEPTH) return path || 'value';
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const here = path ? `${path}.${key}` : key;
    if (!isStorableText(key)) return path || 'body';
    const found = findUnstorableText(item, here, depth + 1);
    if (found) return found;
  }
  return null;
}

export function assertStorable(value: unknown, where = ''): void {
  const field = findUnstorableText(value, where);
  if (field) throw new RuleViolation(`The ${field} contains characters that are not allowed.`, field);
}

/**
 * Routes name their guard as `preHandler` (docs/adding-a-capability.md), which Fastify runs after
 * the schema validation: an anonymous caller's malformed request got the route's 422 (and its
 * field messages) instead of 401. This moves each route's preHandler to preValidation, so who may
 * call is decided before anything of the request is looked at. Bodies are parsed by then, so
 * guards and limits keyed by a body field still see it.
 */
function guardsBeforeValidation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.preHandler) return;
    const guards = Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    const earlier = route.preValidation ? (Array.isArray(route.preValidation) ? route.preValidation : [route.preValidation]) : [];
    route.preValidation = [...earlier, ...guards] as typeof route.preValidation;
    route.preHandler = undefined;
  });
}

export function registerInputGuard(app: FastifyInstance): void {
  guardsBeforeValidation(app);
  const defaultJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepth(body as string) > MAX_JSON_DEPTH) {
      const error = new Error(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`) as Error & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
      return;
    }
    defaultJson(request, body as string, done);
  });

  app.addHook('preValidation', async (request: FastifyRequest) => {
    assertStorable(request.params);
    assertStorable(request.query);
    if (!Buffer.isBuffer(request.body)) assertStorable(request.body);
  });
}
