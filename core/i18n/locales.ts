/**
 * The languages the site is written in: one catalogue each (core/i18n/en.ts, core/i18n/es.ts). The
 * business names its own in business.json (`locale`); a business that names none is English.
 */
export const LOCALES = ['en', 'es'] as const;

export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
