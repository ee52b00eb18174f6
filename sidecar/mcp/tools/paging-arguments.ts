/**
 * The paging argument and result field shared by the list tools (`search_reviews`, `get_reviews_since`).
 * What a cursor must be is core/paging.ts `resolvePage`'s one rule, the same for REST and the search page,
 * so the schema only says it is a string.
 */
import { z } from 'zod';

export const CursorArgumentSchema = z
  .string()
  .optional()
  .meta({ description: 'The last `next_cursor`, same filters; omit to start.' });

export const NextCursorSchema = z
  .string()
  .nullable()
  .meta({ description: 'The next page\'s `cursor`; null on the last.' });
