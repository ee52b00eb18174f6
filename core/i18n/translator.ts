/**
 * The site's words in one language: its catalogue (core/i18n/en.ts, es.ts) and the rules that write
 * numbers, dates and lists the way that language does. Written by hand rather than with Intl, whose
 * output depends on the machine's locale data: the build must not.
 *
 * A catalogue string may hold `{name}` placeholders, which `fill` replaces (a missing value is a bug and
 * throws); a plural is `{ one, other }`, chosen by the count (English and Spanish both say "one" for 1
 * only, and `{count}` is the count as the language writes it). Strings that pages put in their markup
 * as it stands are HTML source (core/pages/html.ts `fillHtml`); the others are plain text.
 */
import { groupDigits } from '../text/text-rules.ts';
import type { Catalogue, Plural } from './catalogue.ts';
import { choosePlural, fill } from './fill.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { DEFAULT_LOCALE, type Locale } from './locales.ts';

const CATALOGUES: Readonly<Record<Locale, Catalogue>> = { en, es };

export type Translator = ReturnType<typeof buildTranslator>;

const translators = new Map<Locale, Translator>();

/** The words and the number and date rules of `locale` (English when none is given). */
export function createTranslator(locale: Locale = DEFAULT_LOCALE): Translator {
  let translator = translators.get(locale);
  if (translator === undefined) translators.set(locale, (translator = buildTranslator(locale)));
  return translator;
}

function buildTranslator(locale: Locale) {
  const m = CATALOGUES[locale];
  const rules = m.format;
  /** A whole number, grouped as the language groups it ("1,234"; "1234", "12 345"). */
  const count = (value: number) => groupDigits(value, rules.groupSeparator, rules.groupMinDigits);
  /** A number with `digits` decimals ("4.36"; "4,36"). */
  const decimal = (value: number, digits: number) => {
    const [whole, fraction] = value.toFixed(digits).split('.');
    return fraction === undefined ? count(Number(whole)) : `${whole}${rules.decimalSeparator}${fraction}`;
  };
  const month = (index: number) => rules.months[index - 1]!;
  return {
    locale,
    /** The catalogue. */
    m,
    fill,
    /** `forms` for `count`, with `{count}` the count as the language writes it. */
    plural: (forms: Plural, value: number, params: Readonly<Record<string, string | number>> = {}) => fill(choosePlural(forms, value), { count: count(value), ...params }),
    count,
    decimal,
    /** A rating as data and insight prose give it: two decimals. */
    rating: (value: number) => decimal(value, 2),
    /** A rating as people read it: one decimal. */
    ratingShort: (value: number) => decimal(value, 1),
    /** A whole percentage: "48%"; "48 %". */
    percent: (value: number) => fill(rules.percent, { value: count(value) }),
    /** `2026-11-14` → "November 14, 2026"; "14 de noviembre de 2026". */
    date: (iso: string) => fill(rules.date, { month: month(Number(iso.slice(5, 7))), day: Number(iso.slice(8, 10)), year: iso.slice(0, 4) }),
    /** `2026-11` → "November 2026"; "noviembre de 2026". */
    month: (yearMonth: string) => fill(rules.month, { month: month(Number(yearMonth.slice(5, 7))), year: yearMonth.slice(0, 4) }),
    /** `2026-11` → "Nov 2026"; "nov 2026". */
    monthShort: (yearMonth: string) => fill(rules.monthShort, { month: rules.monthsShort[Number(yearMonth.slice(5, 7)) - 1]!, year: yearMonth.slice(0, 4) }),
    /** `2025-Q2` → "Q2 2025"; "T2 2025". */
    quarter: (quarter: string) => fill(rules.quarter, { quarter: quarter.slice(6), year: quarter.slice(0, 4) }),
    /** "a", "a and b", "a, b and c"; "a, b y c" (and "e" before a word that sounds like i: "Madrid e Ibiza"). */
    list: (items: readonly string[]) => {
      if (items.length <= 1) return items.join('');
      const last = items.at(-1)!;
      const and = /^h?i(?![aeiouáéíóú])/i.test(last) ? rules.andBeforeI : rules.and;
      return `${items.slice(0, -1).join(rules.listSeparator)}${and}${last}`;
    },
  };
}
