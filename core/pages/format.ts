/**
 * How the pages write dates, sources, ratings and phone numbers for people. Written by hand rather
 * than with Intl, whose output depends on the machine's locale data: the build must not. The site's own
 * language has its words and rules in core/i18n/ (a Translator); what takes none is written in English.
 */
import { createTranslator, type Translator } from '../i18n/translator.ts';

// In English, as the commands and the browser checks of the log write them (site/lib/log-check.ts), which
// load no catalogue; the pages write dates in the site's language (core/i18n/translator.ts `date`).
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2026-11-14` → "November 14, 2026". */
export function formatDate(date: string): string {
  return `${MONTHS[Number(date.slice(5, 7)) - 1]} ${Number(date.slice(8, 10))}, ${date.slice(0, 4)}`;
}

/** The proper names of the sources the site knows; any other is named after its id (`nameSource`). */
export const SOURCE_NAMES: Readonly<Record<string, string>> = {
  google: 'Google',
  yelp: 'Yelp',
  facebook: 'Facebook',
  angi: 'Angi',
  bbb: 'BBB',
  homeadvisor: 'HomeAdvisor',
  nextdoor: 'Nextdoor',
  thumbtack: 'Thumbtack',
  trustpilot: 'Trustpilot',
  houzz: 'Houzz',
};

/** A review's `source` id as its proper name: `google` → "Google", `some-site` → "Some Site"; `direct` in the site's language. */
export function formatSource(source: string, t: Translator = createTranslator()): string {
  if (source === 'direct') return t.m.sources.direct;
  return nameSource(source, SOURCE_NAMES);
}

/**
 * A source id as its proper name in `names`, else its words capitalised. Self-contained: the widget's
 * script carries it as written (site/lib/widget-script.ts).
 */
export function nameSource(source: string, names: Readonly<Record<string, string>>): string {
  return names[source] ?? source.split('-').map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(' ');
}

/** "★★★☆☆" for a review's 3: whole stars only (an average is drawn with star-graphic.astro, to the half star). */
export function formatStars(rating: number): string {
  const full = Math.max(0, Math.min(5, Math.round(rating)));
  return '★'.repeat(full) + '☆'.repeat(5 - full);
}


/** The `tel:` URI of a written phone number (RFC 3966 global number: `+` and digits). */
export function telephoneHref(telephone: string): string {
  return `tel:${telephone.replace(/[^+\d]/g, '')}`;
}

/** A North American `+1-865-555-0142` as people write it, "(865) 555-0142"; anything else as given. */
export function formatTelephone(telephone: string): string {
  const nanp = /^\+?1[-. ]?\(?(\d{3})\)?[-. ]?(\d{3})[-. ]?(\d{4})$/.exec(telephone.trim());
  return nanp ? `(${nanp[1]}) ${nanp[2]}-${nanp[3]}` : telephone;
}


/** ISO dates inside generated prose ("from 2023-03-07 to 2026-11-14") written as people write them. */
export function formatDatesIn(text: string, t: Translator = createTranslator()): string {
  return text.replace(/\b(\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))\b/g, (date) => t.date(date));
}

/**
 * Generated insight prose for a page: ISO dates as people write them, and without the "(review r-…)"
 * references (in the prose's language: "(reseña r-…)"), which the page turns into links beside the text.
 */
export function formatInsightText(text: string, t: Translator = createTranslator()): string {
  const { reviewReference: one, reviewsReference: many } = t.m.insights;
  const reference = String.raw`\s*\((?:${one}|${many}) [a-z0-9-]+(?:, [a-z0-9-]+)*\)`;
  return formatDatesIn(
    text
      // “…right on time.” (review r-1). → “…right on time.”
      .replace(new RegExp(`([.!?][”"])${reference}\\.`, 'g'), '$1')
      .replace(new RegExp(reference, 'g'), ''),
    t,
  );
}

/** Reviews longer than this are folded on the pages. */
export const FOLD_AFTER = 600;

/**
 * A long text cut at a word boundary near 400 characters (`head`), the rest shown on "Read more";
 * `rest` is null when the text is short enough to show whole. `headEnd` and `restStart` place both in
 * the text (for marks given in the text's offsets).
 */
export function foldLongText(text: string): { head: string; rest: string | null; headEnd: number; restStart: number } {
  if (text.length <= FOLD_AFTER) return { head: text, rest: null, headEnd: text.length, restStart: text.length };
  const cut = text.lastIndexOf(' ', 400);
  const at = cut > 200 ? cut : 400;
  const head = text.slice(0, at).trimEnd();
  const rest = text.slice(at).trimStart();
  return { head, rest, headEnd: head.length, restStart: text.length - rest.length };
}

/** A withdrawal's reason (core/schemas/content.ts WITHDRAW_REASONS) in plain words. */
export function formatWithdrawReason(reason: string, t: Translator = createTranslator()): string {
  const words: Readonly<Record<string, string>> = t.m.reasons.withdraw;
  return Object.hasOwn(words, reason) ? words[reason]! : reason;
}

/** An update's kind of change (core/log/entry.ts UPDATE_CHANGES) in plain words; null: not recorded. */
export function formatUpdateChange(change: string | null, reason: string | null, t: Translator = createTranslator()): string {
  const words = t.m.reasons;
  const reasons: Readonly<Record<string, string>> = words.correction;
  if (change === 'correction') return reason === null ? words.changedByBusiness : t.fill(words.changedByBusinessBecause, { reason: Object.hasOwn(reasons, reason) ? reasons[reason]! : reason });
  if (change === 'at_source') return words.changedAtSource;
  if (change === 'reply') return words.replyChanged;
  if (change === 'job') return words.tiedToJob;
  return words.unrecorded;
}
