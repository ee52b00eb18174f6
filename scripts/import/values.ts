/**
 * Reading the values exports write in their own ways: dates and timestamps, star ratings. Each
 * function returns the content model's form (`YYYY-MM-DD`, an integer 1–5) or a sentence saying why
 * not, in the export's own terms.
 */
import { IsoDateSchema } from '../../core/schemas/content.ts';

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

const pad = (n: number | string) => String(n).padStart(2, '0');

/** A two-digit year is in this century: exports of reviews are recent. */
const fullYear = (y: string) => (y.length === 2 ? `20${y}` : y);

function monthOf(name: string): number | undefined {
  const index = MONTHS.indexOf(name.slice(0, 3).toLowerCase());
  return index < 0 || (name.length > 3 && !/^[a-z]+\.?$/i.test(name)) ? undefined : index + 1;
}

/**
 * The date formats CSV exports use, with any time of day after them ignored:
 * `2026-11-14` (ISO, also with a time), `2026/11/14`, `11/14/2026` or `11/14/26` (month first, as US
 * tools write it; `dayFirst` reads `14/11/2026`), `14.11.2026` (day first, as European tools write
 * it), `Nov 14, 2026`, `November 14 2026`, `Friday, November 14, 2026` and `14 Nov 2026`.
 */
export function parseExportDate(text: string, options: { dayFirst: boolean }): Read<string> {
  const read = readExportDate(text.trim(), options);
  if (read.ok && !IsoDateSchema.safeParse(read.value).success) return { ok: false, message: `"${text.trim()}" is not a calendar date` };
  return read;
}

function readExportDate(value: string, options: { dayFirst: boolean }): Read<string> {
  const fail = (why = 'is not a date in a known format (2026-11-14, 11/14/2026, Nov 14, 2026)') =>
    ({ ok: false, message: `"${value}" ${why}` }) as const;
  if (value === '') return { ok: false, message: 'is empty' };
  let m = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:$|[T\s])/.exec(value);
  if (m) return { ok: true, value: `${m[1]}-${pad(m[2]!)}-${pad(m[3]!)}` };
  m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?:$|[T\s,])/.exec(value);
  if (m) {
    const dayFirst = m[2] === '.' || options.dayFirst;
    const [month, day] = dayFirst ? [m[3]!, m[1]!] : [m[1]!, m[3]!];
    if (Number(month) > 12) {
      return fail(dayFirst ? 'has no month ' + month : `has no month ${month}: if the export writes the day first, pass --day-first`);
    }
    return { ok: true, value: `${fullYear(m[4]!)}-${pad(month)}-${pad(day)}` };
  }
  const words = value.replace(/^[a-z]+,\s*/i, '');
  m = /^([a-z]+\.?)\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})(?:$|[\s,])/i.exec(words);
  if (m && monthOf(m[1]!)) return { ok: true, value: `${m[3]}-${pad(monthOf(m[1]!)!)}-${pad(m[2]!)}` };
  m = /^(\d{1,2})\s+([a-z]+\.?),?\s+(\d{4})(?:$|[\s,])/i.exec(words);
  if (m && monthOf(m[2]!)) return { ok: true, value: `${m[3]}-${pad(monthOf(m[2]!)!)}-${pad(m[1]!)}` };
  return fail();
}

const formatters = new Map<string, Intl.DateTimeFormat>();

const UTC_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/;

/**
 * The calendar date of an RFC 3339 timestamp (`2026-11-14T23:10:05.123Z`) in a time zone. A review
 * posted late in the evening in Tennessee is already the next day in UTC, hence `--time-zone`.
 */
export function dateOfTimestamp(timestamp: string, timeZone: string): Read<string> {
  // Google writes UTC (`…Z`): in UTC its date is the first ten characters (which the content schema checks).
  if (timeZone === 'UTC' && UTC_TIMESTAMP.test(timestamp)) return { ok: true, value: timestamp.slice(0, 10) };
  const instant = Date.parse(timestamp);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(timestamp) || Number.isNaN(instant)) {
    return { ok: false, message: `"${timestamp}" is not an RFC 3339 timestamp` };
  }
  if (timeZone === 'UTC') return { ok: true, value: new Date(instant).toISOString().slice(0, 10) };
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, format);
  }
  return { ok: true, value: format.format(instant) };
}

/** Whether Intl knows a time zone name (`America/Chicago`, `UTC`). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const STAR_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };

/**
 * A star rating as exports write it: `5`, `4.0`, `4,0`, `4/5`, `4 out of 5`, `5 stars`, `★★★★☆`,
 * `FIVE`. Only whole stars from 1 to 5 fit the content model.
 */
export function parseStarRating(text: string): Read<number> {
  const value = text.trim();
  if (value === '') return { ok: false, message: 'is empty' };
  let stars: number | undefined;
  if (/^[★☆]+$/.test(value)) stars = [...value].filter((c) => c === '★').length;
  else if (value.toLowerCase() in STAR_WORDS) stars = STAR_WORDS[value.toLowerCase()];
  else {
    const m = /^(\d+(?:[.,]\d+)?)\s*(?:(?:\/|out of|of)\s*5(?:[.,]0+)?|stars?)?$/i.exec(value);
    if (m) stars = Number(m[1]!.replace(',', '.'));
  }
  if (stars === undefined) return { ok: false, message: `"${value}" is not a star rating` };
  if (!Number.isInteger(stars) || stars < 1 || stars > 5) {
    return { ok: false, message: `"${value}" is not a whole number of stars from 1 to 5` };
  }
  return { ok: true, value: stars };
}
