/**
 * How deep a genealogy request reaches. Apart from contracts/genealogy.ts (which re-exports them)
 * so the member app's first script can name the depth without loading zod and the schemas.
 */
export const GENEALOGY_DEFAULT_DEPTH = 3;
export const GENEALOGY_MAX_DEPTH = 6;
