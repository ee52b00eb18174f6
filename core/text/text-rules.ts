/**
 * The small rules of text, each written once: how a name becomes a slug, how strings sort, how a count
 * names its things, how a list is joined, how numbers and ratings are written for people. Written by
 * hand rather than with Intl, whose output depends on the machine's locale data: the build must not.
 */

/**
 * A name as a URL segment or id: "Tomás Herrera" → "tomas-herrera", "Calefacción" → "calefaccion".
 * Accents fold to their base letter; anything else that is not a letter or digit becomes one hyphen; a
 * name with neither gives "x".
 */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug === '' ? 'x' : slug;
}

/** Code-unit order, the same on every machine (`localeCompare` is not): the one string comparator. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export type PluralOptions = {
  /** The plural when it is not `one` + "s" ("replies", "reviews match"). */
  many?: string;
  /** Give only the word ("review" or "reviews"), without the count. */
  word?: boolean;
  /** How the count is written: grouped for people (formatCount) by default, `String` where a command has always printed it bare. */
  format?: (count: number) => string;
};

/** "1 review", "2 reviews", "1,200 reviews"; `{ word: true }` gives just "reviews". */
export function plural(count: number, one: string, { many = `${one}s`, word = false, format = formatCount }: PluralOptions = {}): string {
  const noun = count === 1 ? one : many;
  return word ? noun : `${format(count)} ${noun}`;
}

/** "a", "a and b", "a, b and c". */
export function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** 12345 → "12,345": digits grouped as English groups them. */
export function formatCount(value: number): string {
  return groupDigits(value, ',');
}

/**
 * A whole number with its digits grouped by threes: `separator` between the groups, and none at all
 * below `minDigits` digits (Spanish writes 1234 but 12 345).
 */
export function groupDigits(value: number, separator: string, minDigits = 4): string {
  const digits = String(value);
  if (digits.replace(/^-/, '').length < minDigits) return digits;
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** 4.5 → "4.50": ratings in data and insight prose are always shown with two decimals. */
export function formatRating(value: number): string {
  return value.toFixed(2);
}

/** 4.36 → "4.4": one decimal, as people read a rating. */
export function formatRatingShort(rating: number): string {
  return rating.toFixed(1);
}

/** The whole-number percentage `part` is of `whole` (0 when there is nothing). */
export function getPercent(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((100 * part) / whole);
}

/** The stars a rating is drawn with: to the nearest half star, 0 to 5 (4.24 → 4, 4.36 → 4.5, 4.75 → 5). */
export function roundStars(rating: number): number {
  return Math.max(0, Math.min(5, Math.round(rating * 2) / 2));
}
