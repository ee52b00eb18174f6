/** A content problem names the file, the review id and the field, so an owner can fix it at once. */
import { plural } from '../text/text-rules.ts';
export type ContentProblem = {
  file: string;
  /** The review id, or `#<index>` for an entry without a usable id. */
  review?: string;
  /** The job id (jobs/*.json), or `#<index>` for one without a usable id. */
  job?: string;
  /** Dotted path of the field inside the review or business object. */
  field?: string;
  message: string;
};

export type ContentResult<T> = { ok: true; value: T } | { ok: false; problems: ContentProblem[] };

export function formatContentProblem(p: ContentProblem): string {
  const where = [p.file, p.review === undefined ? undefined : `review ${p.review}`, p.job === undefined ? undefined : `job ${p.job}`, p.field && `field ${p.field}`]
    .filter(Boolean)
    .join(', ');
  return `${where}: ${p.message}`;
}

export function formatContentProblems(problems: readonly ContentProblem[]): string {
  return [`Invalid content: ${plural(problems.length, 'problem', { format: String })}`, ...problems.map((p) => `  - ${formatContentProblem(p)}`)].join('\n');
}

export function formatPath(path: readonly PropertyKey[]): string | undefined {
  return path.length === 0 ? undefined : path.map(String).join('.');
}
