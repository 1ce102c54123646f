import type { ComponentType } from 'react';
import { Navigate } from 'react-router-dom';
import { Loading, useBasename, useCanAccess, useResourceContext } from 'react-admin';

/**
 * A resource's create or edit page that renders nothing of its form until authProvider.canAccess
 * has said yes (finance staff read and never write, BUSINESS-RULES.md §6). react-admin's own
 * <Create>/<Edit> ask too, but render their children in the moment between a "no" and the redirect
 * that follows it; here a "no" never reaches the form: it goes straight to the access-denied page.
 */
export function writePage(Page: ComponentType<any>, action: 'create' | 'edit'): ComponentType<any> {
  const Guarded = (props: Record<string, unknown>) => {
    const resource = useResourceContext();
    const basename = useBasename();
    const { canAccess, isPending } = useCanAccess({ resource, action });
    if (isPending) return <Loading />;
    if (!canAccess) return <Navigate to={`${basename}/access-denied`} replace />;
    return <Page {...props} />;
  };
  Guarded.displayName = `WritePage(${Page.displayName ?? Page.name ?? action})`;
  return Guarded;
}
