/**
 * Opaque paging cursors for list answers that stop at `limit` (MCP `next_cursor`). A cursor carries the
 * offset of the next page and a fingerprint of the filters it was issued for, so a cursor replayed with
 * other filters is refused instead of silently paging through a different list. Clients must treat the
 * text as opaque (MCP 2025-06-18 "Pagination"); its format may change.
 */
import type { ErrorIssue } from './schemas/errors.ts';
import { compareText } from './text/text-rules.ts';

export type CursorResult = { ok: true; offset: number } | { ok: false; message: string };

/** Where a paged answer starts, and the fingerprint of the filters its cursors are issued for. */
export type Page = { offset: number; fingerprint: string };

export const CURSOR_PARAMETER = 'cursor';

/**
 * The one cursor rule of every paged answer (REST search, the search page, search_reviews,
 * get_reviews_since): no cursor starts at the top; a cursor must be one this server issued for the same
 * filters, else the issue `{ path: ['cursor'], code: 'invalid_cursor' }` says why. Without `filters` (they
 * were refused), only whether the server issued the cursor at all is checked, so both are reported together.
 */
export function resolvePage(cursor: unknown, filters: Readonly<Record<string, unknown>> | undefined): { ok: true; page: Page } | { ok: false; issues: ErrorIssue[] } {
  const fingerprint = filters === undefined ? undefined : fingerprintFilters(filters);
  if (cursor === undefined) return { ok: true, page: { offset: 0, fingerprint: fingerprint ?? '' } };
  const decoded = typeof cursor === 'string' ? decodeCursor(cursor, fingerprint) : { ok: false as const, message: 'must be a string: the next_cursor of the previous page' };
  if (!decoded.ok) return { ok: false, issues: [{ path: [CURSOR_PARAMETER], message: decoded.message, code: 'invalid_cursor' }] };
  return { ok: true, page: { offset: decoded.offset, fingerprint: fingerprint ?? '' } };
}

/** The cursor of the page after this one, or null when nothing is left. */
export function nextCursorOf(page: Page, result: { count: number; total: number }): string | null {
  return encodeNextCursor({ offset: page.offset, count: result.count, total: result.total }, page.fingerprint);
}

const CURSOR_VERSION = 1;

/** A short, stable fingerprint of plain JSON-like filter values (key order does not matter). */
export function fingerprintFilters(filters: Readonly<Record<string, unknown>>): string {
  return fnv1a(canonicalJson(filters)).toString(36);
}

export function encodeCursor(offset: number, fingerprint: string): string {
  return toBase64Url(JSON.stringify({ v: CURSOR_VERSION, o: offset, f: fingerprint }));
}

/** The offset a cursor carries, if this server issued it for `fingerprint` (any filters when undefined). */
export function decodeCursor(text: string, fingerprint: string | undefined): CursorResult {
  let value: unknown;
  try {
    value = JSON.parse(fromBase64Url(text));
  } catch {
    return { ok: false, message: 'is not a cursor this server issued' };
  }
  if (!isCursorBody(value)) return { ok: false, message: 'is not a cursor this server issued' };
  if (fingerprint !== undefined && value.f !== fingerprint) {
    return { ok: false, message: 'was issued for other filters; repeat the same filters with it, or drop it to start over' };
  }
  return { ok: true, offset: value.o };
}

/** The cursor of the page after `offset + count`, or null when nothing is left. */
export function encodeNextCursor(page: { offset: number; count: number; total: number }, fingerprint: string): string | null {
  const next = page.offset + page.count;
  return page.count > 0 && next < page.total ? encodeCursor(next, fingerprint) : null;
}

function isCursorBody(value: unknown): value is { v: number; o: number; f: string } {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return body.v === CURSOR_VERSION && Number.isSafeInteger(body.o) && (body.o as number) >= 0 && typeof body.f === 'string';
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => compareText(a, b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** 32-bit FNV-1a: enough to tell filter sets apart; cursors are not a security boundary. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error('not base64url');
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
