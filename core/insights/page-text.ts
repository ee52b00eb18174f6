/**
 * The insights as the pages say them, in the site's language (business.json `locale`, core/i18n/):
 * each aspect's label and description, the summary and the FAQ. /insights.json and the MCP tools keep
 * their English texts, whatever the site's language: they are data for programs. In English this is
 * /insights.json's own text; in another language the generated summary and answers are written again
 * in it, from the same figures, and the editor's own entries are shown as the editor wrote them.
 */
import type { Locale } from '../i18n/locales.ts';
import type { FaqEntry } from '../schemas/insights.ts';

export type PageText = {
  locale: Locale;
  /** Every aspect of the set, in its order, with its label and description in the site's language. */
  aspects: { id: string; label: string; description: string | null }[];
  /** The summary the pages show: the editor's when there is one, else the generated one. */
  summary: string;
  faq: FaqEntry[];
};
