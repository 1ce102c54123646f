/**
 * The back office's approvals strings: resource labels under `resources.<name>`, the rest under
 * `pos.<area>` (STYLE.md rule 15). Merged into en.ts; keys must not collide with other files.
 */
export const approvalsMessages = {
  resources: {},
  pos: {},
};
