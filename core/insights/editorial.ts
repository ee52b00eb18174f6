/**
 * What an editor may write in content/insights/: FAQ entries (faq.json) and a summary that replaces
 * the generated one (summary.json). Both files are optional, and so is every entry in them.
 *
 * faq.json:     { "entries": [ { "id"?, "question", "answer", "review_ids"? } ], "hide"?: [generated ids] }
 *               An entry whose id is that of a generated entry (e.g. "aspect-price") replaces it.
 * summary.json: { "text"?, "as_of"? }  No text: the generated summary is shown.
 */
import { z } from 'zod';
import { IsoDateSchema, SlugSchema } from '../schemas/content.ts';
import type { ErrorIssue } from '../schemas/errors.ts';
import { parseWithIssues, type ParseOutcome } from '../schemas/issues.ts';

const TextSchema = z.string().trim().min(1, 'must not be empty');

export const EditorFaqEntrySchema = z.strictObject({
  id: SlugSchema.optional(),
  question: TextSchema,
  answer: TextSchema,
  review_ids: z.array(SlugSchema).default([]),
});

export const EditorFaqFileSchema = z.strictObject({
  $comment: z.string().optional(),
  entries: z.array(EditorFaqEntrySchema).default([]),
  hide: z.array(SlugSchema).default([]),
});

export const EditorSummaryFileSchema = z.strictObject({
  $comment: z.string().optional(),
  text: TextSchema.optional(),
  /** The date the text reflects; a summary older than the newest review is flagged `stale`. */
  as_of: IsoDateSchema.optional(),
});

export type EditorFaqFile = z.output<typeof EditorFaqFileSchema>;
export type EditorSummaryFile = z.output<typeof EditorSummaryFileSchema>;
export type InsightsEditorial = { faq: EditorFaqFile; summary: EditorSummaryFile };

export const EMPTY_EDITORIAL: InsightsEditorial = { faq: { entries: [], hide: [] }, summary: {} };

export type ParseEditorialResult = { ok: true; editorial: InsightsEditorial } | { ok: false; issues: ErrorIssue[] };

/** Parses both files (undefined = file absent); issue paths start with the file name. */
export function parseInsightsEditorial(files: { faq?: unknown; summary?: unknown }): ParseEditorialResult {
  const faq = parseWithIssues(EditorFaqFileSchema, files.faq ?? {});
  const summary = parseWithIssues(EditorSummaryFileSchema, files.summary ?? {});
  if (faq.ok && summary.ok) return { ok: true, editorial: { faq: faq.value, summary: summary.value } };
  const inFile = (file: string, outcome: ParseOutcome<unknown>) => (outcome.ok ? [] : outcome.issues.map((i) => ({ ...i, path: [file, ...i.path] })));
  return { ok: false, issues: [...inFile('faq.json', faq), ...inFile('summary.json', summary)] };
}

/** Editor entries may only cite reviews that are published: returns a problem per unknown id. */
export function checkEditorialReviewIds(editorial: InsightsEditorial, reviewIds: ReadonlySet<string>): ErrorIssue[] {
  const issues: ErrorIssue[] = [];
  editorial.faq.entries.forEach((entry, e) => {
    entry.review_ids.forEach((id, i) => {
      if (!reviewIds.has(id)) {
        issues.push({ path: ['faq.json', 'entries', e, 'review_ids', i], message: `no published review has the id "${id}"`, code: 'custom' });
      }
    });
  });
  return issues;
}
