/** The paging arguments and result fields shared by the list tools (`search_reviews`, `get_reviews_since`). */
import { z } from 'zod';
import { decodeCursor, encodeNextCursor, fingerprintFilters } from '../../../core/paging.ts';
import type { ArgumentIssue } from '../tool.ts';

export const CursorArgumentSchema = z
  .string()
  .min(1)
  .max(500)
  .optional()
  .meta({
    description:
      'Opaque `next_cursor` from the previous page of the same call. Repeat the same filters with it; omit it for the first page.',
  });

export const NextCursorSchema = z
  .string()
  .nullable()
  .meta({ description: 'Pass as `cursor` (with the same filters) to get the next page; null when this is the last page.' });

export type Page = { offset: number; fingerprint: string };

/** Resolves an optional cursor against the filters it must have been issued for. */
export function resolvePage(cursor: string | undefined, filters: Record<string, unknown>): { page: Page; issues: ArgumentIssue[] } {
  const fingerprint = fingerprintFilters(filters);
  if (cursor === undefined) return { page: { offset: 0, fingerprint }, issues: [] };
  const decoded = decodeCursor(cursor, fingerprint);
  return decoded.ok
    ? { page: { offset: decoded.offset, fingerprint }, issues: [] }
    : { page: { offset: 0, fingerprint }, issues: [{ path: ['cursor'], message: decoded.message }] };
}

export function nextCursorOf(page: Page, result: { count: number; total: number }): string | null {
  return encodeNextCursor({ offset: page.offset, count: result.count, total: result.total }, page.fingerprint);
}
