import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A form's validation (zod and its schema, ~85 KB of script) loaded apart from the page that shows
 * the form, so a page whose first screen has a form draws without downloading and running it
 * (issue 13, page speed). react-hook-form's resolvers are asynchronous already (zodResolver's is),
 * so the form validates as before: the same schema, the same messages, at the same moments.
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

/**
 * Props for the form's element: the first focus or press inside it starts loading its validation,
 * so the page does no work for it until the member turns to the form (loading it when the browser
 * was idle after the first screen ran zod's ~40 ms of script just as the page became usable). A
 * submit that comes first waits for it: the same check, a moment later.
 */
export function loadWhenTouched(...resolvers: Array<{ load: () => Promise<unknown> }>): { onFocus: () => void; onPointerDown: () => void } {
  const load = () => resolvers.forEach((resolver) => void resolver.load().catch(() => undefined));
  return { onFocus: load, onPointerDown: load };
}
