/**
 * The back office's finance strings: resource labels under `resources.<name>`, the rest under
 * `pos.<area>` (STYLE.md rule 15). Merged into en.ts; keys must not collide with other files.
 */
export const financeMessages = {
  resources: {},
  pos: {},
};
