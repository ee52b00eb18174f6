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
import type { ConfigIssue } from './aspect-model.ts';

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

export type ParseEditorialResult = { ok: true; editorial: InsightsEditorial } | { ok: false; issues: ConfigIssue[] };

/** Parses both files (undefined = file absent); issue paths start with the file name. */
export function parseInsightsEditorial(files: { faq?: unknown; summary?: unknown }): ParseEditorialResult {
  const faq = EditorFaqFileSchema.safeParse(files.faq ?? {});
  const summary = EditorSummaryFileSchema.safeParse(files.summary ?? {});
  const issues: ConfigIssue[] = [];
  for (const [file, result] of [['faq.json', faq], ['summary.json', summary]] as const) {
    if (result.success) continue;
    for (const issue of result.error.issues) {
      issues.push({ path: [file, ...issue.path.map((k) => (typeof k === 'number' ? k : String(k)))], message: issue.message, code: issue.code });
    }
  }
  if (!faq.success || !summary.success) return { ok: false, issues };
  return { ok: true, editorial: { faq: faq.data, summary: summary.data } };
}

/** Editor entries may only cite reviews that are published: returns a problem per unknown id. */
export function checkEditorialReviewIds(editorial: InsightsEditorial, reviewIds: ReadonlySet<string>): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  editorial.faq.entries.forEach((entry, e) => {
    entry.review_ids.forEach((id, i) => {
      if (!reviewIds.has(id)) {
        issues.push({ path: ['faq.json', 'entries', e, 'review_ids', i], message: `no published review has the id "${id}"`, code: 'custom' });
      }
    });
  });
  return issues;
}
