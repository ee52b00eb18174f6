/**
 * Merging an import into the review files of a content folder, as a plan of file writes. Pure: the
 * files come in as text and parsed JSON, and the plan says which to write or delete (import-fs.ts
 * does it, all or nothing).
 *
 * - A review the folder has (same id, in whichever file) gets the fields the export supplies; the
 *   owner's fields (OWNER_FIELDS) stay as they are. Equal values leave the review, and its file, as is.
 * - A new review goes to `reviews/<source>-<YYYY-MM>.json`, by its month.
 * - A file the import changes is written sorted by date then id, with two-space JSON and a final
 *   newline (as `npm run generate` writes them); a file it leaves alone is not written at all.
 * - `--prune` removes the reviews in its scope that the export no longer lists.
 */
import { parseContent } from '../../core/content/parse-content.ts';
import type { ContentProblem } from '../../core/content/problems.ts';
import { OWNER_FIELDS, REVIEW_FIELDS, type ImportedReview, type MappedExport, type Origin, type Skip } from './record.ts';
import { compareText } from '../../core/text/text-rules.ts';

export type ExistingFile = { name: string; text: string; reviews: Record<string, unknown>[] };

export type Change = { kind: 'added' | 'updated' | 'removed'; id: string; file: string; fields: string[]; origin?: Origin };

export type MergePlan = {
  /** New text of each review file that changes (by name inside reviews/), or null to delete it. */
  writes: Map<string, string | null>;
  changes: Change[];
  unchanged: number;
  /** The review files as they will be, for validating the whole content. */
  files: { name: string; reviews: Record<string, unknown>[] }[];
};

export type MergeOptions = {
  /** With `--prune`: which reviews the export speaks for (those of its source, or all for a backup). */
  pruneScope?: (review: Record<string, unknown>) => boolean;
  /** Ids whose import is refused: their reviews stay as they are. */
  exclude?: ReadonlySet<string>;
};

export type CombinedImport = { reviews: ImportedReview[]; skipped: Skip[]; listedIds: Set<string> };

/**
 * Joins the files of one import. A review listed twice (pages fetched while it changed, two exports
 * that overlap) is imported once: the copy with the newest `version`, or else the one listed last.
 */
export function combineExports(exports: readonly MappedExport[]): CombinedImport {
  const byId = new Map<string, ImportedReview>();
  const skipped: Skip[] = [];
  const listedIds = new Set<string>();
  for (const mapped of exports) {
    skipped.push(...mapped.skipped);
    for (const id of mapped.listedIds) listedIds.add(id);
    for (const review of mapped.reviews) {
      const earlier = byId.get(review.review.id);
      if (earlier === undefined) {
        byId.set(review.review.id, review);
        continue;
      }
      const keepEarlier = earlier.version !== undefined && review.version !== undefined && earlier.version > review.version;
      const [kept, dropped] = keepEarlier ? [earlier, review] : [review, earlier];
      byId.set(review.review.id, kept);
      skipped.push({ origin: dropped.origin, reason: 'duplicate', message: `listed again at ${describeOrigin(kept.origin)}, which is kept` });
    }
  }
  return { reviews: [...byId.values()], skipped, listedIds };
}

export function describeOrigin(origin: Origin): string {
  return [
    origin.file,
    origin.row === undefined ? undefined : `row ${origin.row}`,
    origin.review === undefined ? undefined : `review ${origin.review}`,
    origin.job === undefined ? undefined : `job ${origin.job}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** The file a new review goes to. */
export function targetFileOf(review: { source?: string; date: string }): string {
  return `${review.source ?? 'direct'}-${review.date.slice(0, 7)}.json`;
}

export function mergeImport(existing: readonly ExistingFile[], combined: CombinedImport, options: MergeOptions = {}): MergePlan {
  const files = new Map(existing.map((f) => [f.name, { name: f.name, text: f.text as string | undefined, reviews: [...f.reviews], dirty: false }]));
  const located = new Map<string, { file: string; index: number }>();
  for (const file of files.values()) {
    file.reviews.forEach((review, index) => {
      if (typeof review.id === 'string' && !located.has(review.id)) located.set(review.id, { file: file.name, index });
    });
  }

  const changes: Change[] = [];
  let unchanged = 0;
  for (const imported of combined.reviews) {
    const { id } = imported.review;
    if (options.exclude?.has(id)) continue;
    const at = located.get(id);
    if (at) {
      const file = files.get(at.file)!;
      const current = file.reviews[at.index]!;
      const next = updateReview(current, imported);
      const fields = changedFields(current, next);
      if (fields.length === 0) {
        unchanged++;
        continue;
      }
      file.reviews[at.index] = next;
      file.dirty = true;
      changes.push({ kind: 'updated', id, file: file.name, fields, origin: imported.origin });
      continue;
    }
    const name = targetFileOf(imported.review);
    let file = files.get(name);
    if (!file) files.set(name, (file = { name, text: undefined, reviews: [], dirty: false }));
    located.set(id, { file: name, index: file.reviews.length });
    file.reviews.push(orderKeys(imported.review));
    file.dirty = true;
    changes.push({ kind: 'added', id, file: name, fields: [], origin: imported.origin });
  }

  if (options.pruneScope) {
    for (const file of files.values()) {
      const kept = file.reviews.filter((review) => {
        const gone = options.pruneScope!(review) && typeof review.id === 'string' && !combined.listedIds.has(review.id);
        if (gone) changes.push({ kind: 'removed', id: review.id as string, file: file.name, fields: [] });
        return !gone;
      });
      if (kept.length !== file.reviews.length) [file.reviews, file.dirty] = [kept, true];
    }
  }

  const writes = new Map<string, string | null>();
  for (const file of files.values()) {
    if (!file.dirty) continue;
    if (file.reviews.length === 0) {
      if (file.text !== undefined) writes.set(file.name, null);
      continue;
    }
    file.reviews.sort(compareOldestFirst);
    const text = renderReviewFile(file.reviews);
    if (text !== file.text) writes.set(file.name, text);
  }
  const after = [...files.values()].filter((f) => f.reviews.length > 0).map(({ name, reviews }) => ({ name, reviews }));
  after.sort((a, b) => compareText(a.name, b.name));
  return { writes, changes, unchanged, files: after };
}

/**
 * Plans the import and checks the content it would leave with the build's own validation
 * (core/content/parse-content.ts: duplicate ids, unknown technicians or services, a reply dated
 * before its review…). A review the import would make invalid is refused (skipped, its file left as
 * it was); problems the folder already had are returned as `notes`, since the build reports them anyway.
 */
export function planImport(
  existing: readonly ExistingFile[],
  combined: CombinedImport,
  options: MergeOptions & { business?: unknown },
): { plan: MergePlan; refused: Skip[]; notes: ContentProblem[] } {
  const exclude = new Set(options.exclude);
  const refused: Skip[] = [];
  for (;;) {
    const plan = mergeImport(existing, combined, { ...options, exclude });
    // Nothing to write: the folder stays as valid, or as invalid, as it was.
    if (options.business === undefined || plan.writes.size === 0) return { plan, refused, notes: [] };
    const checked = parseContent({
      business: { file: 'business.json', data: options.business },
      reviewFiles: plan.files.map((f) => ({ file: `reviews/${f.name}`, data: f.reviews })),
    });
    if (checked.ok) return { plan, refused, notes: [] };
    const touched = new Map(plan.changes.filter((c) => c.kind !== 'removed').map((c) => [c.id, c]));
    const caused = checked.problems.filter((p) => p.review !== undefined && touched.has(p.review));
    if (caused.length === 0) return { plan, refused, notes: checked.problems };
    for (const problem of caused) {
      if (exclude.has(problem.review!)) continue;
      exclude.add(problem.review!);
      const change = touched.get(problem.review!)!;
      refused.push({ origin: change.origin ?? { file: change.file }, reason: 'invalid', field: problem.field, message: problem.message });
    }
  }
}

/** The review with the export's fields applied; owner fields and unknown keys stay. */
function updateReview(current: Record<string, unknown>, imported: ImportedReview): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const field of imported.supplied) {
    if (OWNER_FIELDS.includes(field)) continue;
    const value = imported.review[field];
    if (value === undefined) delete next[field];
    else next[field] = value;
  }
  return orderKeys(next);
}

function changedFields(current: Record<string, unknown>, next: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(current), ...Object.keys(next)]);
  return [...keys].filter((k) => current[k] !== next[k] && (typeof current[k] !== 'object' || JSON.stringify(current[k]) !== JSON.stringify(next[k])));
}

/** The content model's key order, then any other keys as they were. */
function orderKeys(review: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of REVIEW_FIELDS) if (review[key] !== undefined) ordered[key] = review[key];
  for (const [key, value] of Object.entries(review)) if (!(key in ordered) && value !== undefined) ordered[key] = value;
  return ordered;
}

function compareOldestFirst(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const [ad, bd, ai, bi] = [String(a.date), String(b.date), String(a.id), String(b.id)];
  return compareText(ad, bd) || compareText(ai, bi);
}

export function renderReviewFile(reviews: readonly Record<string, unknown>[]): string {
  return `${JSON.stringify(reviews, null, 2)}\n`;
}
