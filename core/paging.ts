/**
 * Opaque paging cursors for list answers that stop at `limit` (MCP `next_cursor`). A cursor carries the
 * offset of the next page and a fingerprint of the filters it was issued for, so a cursor replayed with
 * other filters is refused instead of silently paging through a different list. Clients must treat the
 * text as opaque (MCP 2025-06-18 "Pagination"); its format may change.
 */

export type CursorResult = { ok: true; offset: number } | { ok: false; message: string };

const CURSOR_VERSION = 1;

/** A short, stable fingerprint of plain JSON-like filter values (key order does not matter). */
export function fingerprintFilters(filters: Readonly<Record<string, unknown>>): string {
  return fnv1a(canonicalJson(filters)).toString(36);
}

export function encodeCursor(offset: number, fingerprint: string): string {
  return toBase64Url(JSON.stringify({ v: CURSOR_VERSION, o: offset, f: fingerprint }));
}

export function decodeCursor(text: string, fingerprint: string): CursorResult {
  let value: unknown;
  try {
    value = JSON.parse(fromBase64Url(text));
  } catch {
    return { ok: false, message: 'is not a cursor this server issued' };
  }
  if (!isCursorBody(value)) return { ok: false, message: 'is not a cursor this server issued' };
  if (value.f !== fingerprint) {
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
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
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
