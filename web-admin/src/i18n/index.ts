import polyglotI18nProvider from 'ra-i18n-polyglot';
import englishMessages from './en';

/**
 * English is the only locale today. A further one is added to the list below and loaded lazily
 * (`import('./fr').then(m => m.default)`), as in the react-admin demo.
 * `allowMissing` lets server texts (already human-readable) pass through `translate` unchanged.
 */
export const i18nProvider = polyglotI18nProvider(() => englishMessages, 'en', [{ locale: 'en', name: 'English' }], {
  allowMissing: true,
});
