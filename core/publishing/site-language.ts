/**
 * `_language.json`, beside a build's files when its site is not in English (business.json `locale`):
 * what the service needs to write the search page in the site's language, which it fills for each query
 * (core/pages/search-page.ts): the locale and the aspects' labels in it. Never served and never listed
 * in the manifest; an English build has none, so its files are what they were before there were languages.
 */
import { z } from 'zod';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../i18n/locales.ts';

export const LANGUAGE_FILE = '_language.json';

export const SiteLanguageSchema = z.object({
  locale: z.enum(LOCALES),
  /** Every aspect's label in the site's language, by id. */
  aspect_labels: z.record(z.string(), z.string()),
});

export type SiteLanguage = z.infer<typeof SiteLanguageSchema>;

/** The language of a build without `_language.json`: English, with /insights.json's own labels. */
export const ENGLISH: SiteLanguage = { locale: DEFAULT_LOCALE, aspect_labels: {} };

/** The file's text for a site in `locale`, or undefined for English, which writes none. */
export function renderSiteLanguage(locale: Locale, aspects: readonly { id: string; label: string }[]): string | undefined {
  if (locale === DEFAULT_LOCALE) return undefined;
  const language: SiteLanguage = { locale, aspect_labels: Object.fromEntries(aspects.map((a) => [a.id, a.label])) };
  return `${JSON.stringify(language)}\n`;
}
