import { type ComponentType, lazy } from 'react';

/**
 * A screen loaded when first opened (one chunk per resource; react-admin's layout shows its
 * loader meanwhile), so the back office's first page does not download every screen.
 */
export function lazyScreen<Name extends string, Module extends Record<Name, ComponentType<any>>>(load: () => Promise<Module>, name: Name): ComponentType<any> {
  return lazy(async () => ({ default: (await load())[name] }));
}
