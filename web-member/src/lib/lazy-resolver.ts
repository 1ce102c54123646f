import { useEffect } from 'react';
import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form's validation (zod and its schema, ~85 KB of script) loaded apart from the page that shows
 * the form, so a page whose first screen has a form draws without downloading and running it
 * (issue 13, page speed). react-hook-form's resolvers are asynchronous already (zodResolver's is),
 * so the form validates as before: the same schema, the same messages, at the same moments.
 * `useLoadResolver` fetches it once the page is drawn, so the first submit finds it here.
 */
export type LazyResolver<T extends FieldValues> = Resolver<T> & { load: () => Promise<Resolver<T>> };

export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): LazyResolver<T> {
  let loading: Promise<Resolver<T>> | undefined;
  const get = () =>
    (loading ??= load().catch((error: unknown) => {
      // A failed download (a deploy replaced the files) is tried again on the next validation.
      loading = undefined;
      throw error;
    }));
  const resolver = (async (values, context, options) => (await get())(values, context, options)) as LazyResolver<T>;
  resolver.load = get;
  return resolver;
}

/** Starts loading the resolvers when the browser is idle after the page has been drawn. */
export function useLoadResolver(...resolvers: Array<{ load: () => Promise<unknown> }>): void {
  useEffect(() => {
    const load = () => resolvers.forEach((resolver) => void resolver.load().catch(() => undefined));
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(load, { timeout: 2_000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = window.setTimeout(load, 200);
    return () => window.clearTimeout(id);
    // The resolvers are module constants: loaded once per mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
