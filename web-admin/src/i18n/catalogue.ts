/**
 * The back office's catalogue strings: resource labels under `resources.<name>`, the rest under
 * `pos.<area>` (STYLE.md rule 15). Merged into en.ts; keys must not collide with other files.
 */
export const catalogueMessages = {
  resources: {},
  pos: {},
};
