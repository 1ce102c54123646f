/**
 * The back office's dashboard strings: resource labels under `resources.<name>`, the rest under
 * `pos.<area>` (STYLE.md rule 15). Merged into en.ts; keys must not collide with other files.
 */
export const dashboardMessages = {
  resources: {},
  pos: {},
};
