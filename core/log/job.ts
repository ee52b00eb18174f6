/**
 * Jobs in the review log (issue 42, docs/verification.md "Jobs and receipts"): what a `job` entry commits
 * to, and the receipt code a customer gets with the invoice. Pure, with the hash given, so the browser's
 * receipt page (site/lib/job-check.ts) and the build compute the same bytes.
 *
 * - The job's secret: 10 bytes the owner's job key derives from the job's id (scripts/lib/job-key.ts);
 *   nothing about the job can be learnt from it, and the key prints the same receipt again.
 * - The receipt code: the secret in Crockford's base32 (16 characters, grouped by 4), then one check
 *   character (Luhn mod 32), so a mistyped character or two swapped neighbours are caught before any look-up.
 * - The entry's `locator`: the first 16 bytes of SHA-256("reviews-job-locator/v1\n" + secret in lowercase
 *   hex + "\n"), in hex; a receipt finds its entry by it (core/log/job-lookup.ts).
 * - The entry's `commitment`: base64 SHA-256 of the UTF-8 lines
 *   "reviews-job/v1", the secret in lowercase hex, `completed` (YYYY-MM-DD), the service id, the area (empty
 *   when none), each ended by "\n". Anyone holding the receipt recomputes it: the week, service and area
 *   are in the entry; the day is one of the week's seven.
 */
export type Hash = (data: Uint8Array) => Uint8Array;

export const JOB_SECRET_BYTES = 10;
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_CHARS = 16;

const utf8 = (text: string) => new TextEncoder().encode(text);
export const toHex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** ISO 8601 week of a calendar date: `2026-W11` (weeks start on Monday; week 1 holds the year's first Thursday). */
export function isoWeekOf(date: string): string {
  const day = new Date(`${date}T00:00:00Z`);
  const weekday = (day.getUTCDay() + 6) % 7;
  const thursday = new Date(day.getTime() + (3 - weekday) * 86_400_000);
  const year = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000));
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The seven dates of an ISO week, Monday first. */
export function datesOfIsoWeek(week: string): string[] {
  const match = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!match) return [];
  const year = Number(match[1]);
  const jan4 = Date.UTC(year, 0, 4);
  const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * 86_400_000 + (Number(match[2]) - 1) * 7 * 86_400_000;
  return Array.from({ length: 7 }, (_, i) => new Date(monday + i * 86_400_000).toISOString().slice(0, 10));
}

/** The check character of base32 digits: Luhn mod 32. */
function checkDigit(digits: readonly number[]): number {
  let sum = 0;
  digits.forEach((d, i) => {
    // From the right, every second digit doubled (the check character will be the rightmost).
    const doubled = (digits.length - i) % 2 === 1 ? d * 2 : d;
    sum += Math.floor(doubled / 32) + (doubled % 32);
  });
  return (32 - (sum % 32)) % 32;
}

/** The customer's receipt code of a job secret: `XXXX-XXXX-XXXX-XXXX-C`. */
export function formatReceiptCode(secret: Uint8Array): string {
  let value = 0n;
  for (const byte of secret) value = (value << 8n) | BigInt(byte);
  const digits = Array.from({ length: CODE_CHARS }, (_, i) => Number((value >> BigInt(5 * (CODE_CHARS - 1 - i))) & 31n));
  const chars = [...digits, checkDigit(digits)].map((d) => ALPHABET[d]).join('');
  return chars.match(/.{1,4}/g)!.join('-');
}

/**
 * A code as a person types it back: case, spaces and hyphens do not matter, and I, L and O are read as
 * 1, 1 and 0 (Crockford). The secret, or what is wrong with the code.
 */
export function parseReceiptCode(code: string): { ok: true; secret: Uint8Array } | { ok: false; reason: string } {
  const clean = code.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
  if (clean.length !== CODE_CHARS + 1) return { ok: false, reason: `a receipt code has ${CODE_CHARS + 1} characters, this one ${clean.length}` };
  const digits = [...clean].map((c) => ALPHABET.indexOf(c));
  if (digits.some((d) => d < 0)) return { ok: false, reason: 'a receipt code has only the digits and the letters A–Z but I, L, O and U' };
  if (checkDigit(digits.slice(0, -1)) !== digits.at(-1)) return { ok: false, reason: 'the code\'s last character does not match the others: a character is mistyped' };
  let value = 0n;
  for (const d of digits.slice(0, -1)) value = (value << 5n) | BigInt(d);
  const secret = new Uint8Array(JOB_SECRET_BYTES);
  for (let i = JOB_SECRET_BYTES - 1; i >= 0; i--) {
    secret[i] = Number(value & 255n);
    value >>= 8n;
  }
  return { ok: true, secret };
}

/** The entry's `locator` of a job secret: 32 hex characters. */
export function jobLocator(secret: Uint8Array, hash: Hash): string {
  return toHex(hash(utf8(`reviews-job-locator/v1\n${toHex(secret)}\n`)).subarray(0, 16));
}

/** The entry's `commitment` of a job: base64 SHA-256 of the documented lines. */
export function jobCommitment(job: { secret: Uint8Array; completed: string; service: string; area?: string | undefined }, hash: Hash): string {
  return toBase64(hash(utf8(`reviews-job/v1\n${toHex(job.secret)}\n${job.completed}\n${job.service}\n${job.area ?? ''}\n`)));
}

/** Where the receipt page looks a locator up: `log/jobs/<first two hex characters>.json`. */
export const jobShardOf = (locator: string) => locator.slice(0, 2);
