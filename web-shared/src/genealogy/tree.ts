import type { GenealogyNode } from '@portal/services/contracts/genealogy';

/**
 * Plain functions over the org chart the api returns (docs/genealogy.md): children hold only the
 * legs that are taken, each naming its leg, so the chart works out the empty slots itself.
 */

export type Leg = 'left' | 'right';
export const LEGS: readonly Leg[] = ['left', 'right'];

/** The member in each leg of `node`; null is an empty slot. */
export function legSlots(node: GenealogyNode): Record<Leg, GenealogyNode | null> {
  return {
    left: node.children.find((c) => c.leg === 'left') ?? null,
    right: node.children.find((c) => c.leg === 'right') ?? null,
  };
}

/** The nodes from `root` down to the member `uuid` (both included); empty when it is not in the tree. */
export function pathTo(root: GenealogyNode, uuid: string): GenealogyNode[] {
  if (root.uuid === uuid) return [root];
  for (const child of root.children) {
    const below = pathTo(child, uuid);
    if (below.length) return [root, ...below];
  }
  return [];
}
