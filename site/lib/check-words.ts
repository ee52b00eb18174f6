/**
 * The words of the log's browser checks (/log/check/, /log/job/), in the site's language: the page writes
 * them into its `data-words` (writeCheckWords, at build time) and its script reads them (readCheckWords), so
 * the script carries no catalogue of its own and reads the same on any copy of the site.
 */
import type { Catalogue } from '../../core/i18n/catalogue.ts';
import { fill } from '../../core/i18n/fill.ts';
import type { Translator } from '../../core/i18n/translator.ts';

type DateWords = { months: string[]; date: string };
/** `how`: what kind of change an update entry is, in words, by `change` (and `correction:<reason>`): core/pages/format.ts formatUpdateChange. */
export type LogCheckWords = Catalogue['logCheckScript'] & DateWords & { how: Record<string, string> };
export type JobCheckWords = Catalogue['jobCheckScript'] & DateWords;

/** The `data-words` of a check page: its script's strings, how the language writes a date, and what else the page gives its script. */
export function writeCheckWords(t: Translator, script: 'logCheckScript' | 'jobCheckScript', extra: Readonly<Record<string, unknown>> = {}): string {
  return JSON.stringify({ ...t.m[script], months: t.m.format.months, date: t.m.format.date, ...extra });
}

/** The words the page wrote, and the dates written with them (`2026-11-14` → "November 14, 2026"). */
export function readCheckWords<W extends DateWords>(root: HTMLElement | null | undefined): { words: W; formatDate: (iso: string) => string } {
  const words = JSON.parse(root?.dataset.words ?? '{}') as W;
  const formatDate = (iso: string) => fill(words.date, { month: words.months[Number(iso.slice(5, 7)) - 1] ?? '', day: Number(iso.slice(8, 10)), year: iso.slice(0, 4) });
  return { words, formatDate };
}
