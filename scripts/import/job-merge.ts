/**
 * Merging imported jobs into jobs/*.json, as a plan of file writes. Pure, like merge.ts for reviews:
 *
 * - A job the folder has (same id, in whichever file) gets the members the export supplies; any other
 *   member (the owner's own notes) stays. Equal values leave the job, and its file, as it is.
 * - A new job goes to `jobs/<YYYY-MM>.json`, by the month it was completed.
 * - A file the import changes is written sorted by completion date then id, as two-space JSON with a
 *   final newline; a file it leaves alone is not written at all. Nothing is ever removed.
 *
 * The folder as it would be is then checked by the build's own validation (parse-content.ts), and a job
 * the build would refuse is refused here instead, with the build's message.
 */
import { parseContent, type RawFile } from '../../core/content/parse-content.ts';
import type { ContentProblem } from '../../core/content/problems.ts';
import { compareText } from '../../core/text/text-rules.ts';
import type { ArrayFile } from './import-fs.ts';
import { JOB_KEYS, type ImportedJob } from './job-csv.ts';
import { describeOrigin, renderReviewFile, type Change } from './merge.ts';
import type { Skip } from './record.ts';

export type JobPlan = {
  /** New text of each job file that changes (by name inside jobs/). */
  writes: Map<string, string>;
  changes: Change[];
  unchanged: number;
  /** The job files as they will be, for validating the whole content. */
  files: { name: string; jobs: Record<string, unknown>[] }[];
};

/**
 * Joins the files of one import: a job listed twice (two rows of one job, two exports that overlap) is
 * imported once, as the row listed last.
 */
export function combineJobs(exports: readonly { jobs: readonly ImportedJob[]; skipped: readonly Skip[] }[]): { jobs: ImportedJob[]; skipped: Skip[] } {
  const byId = new Map<string, ImportedJob>();
  const skipped: Skip[] = [];
  for (const mapped of exports) {
    skipped.push(...mapped.skipped);
    for (const job of mapped.jobs) {
      const earlier = byId.get(job.job.id);
      if (earlier !== undefined) skipped.push({ origin: earlier.origin, reason: 'duplicate', message: `listed again at ${describeOrigin(job.origin)}, which is kept` });
      // Delete first, so the kept row takes the place of the last listing.
      byId.delete(job.job.id);
      byId.set(job.job.id, job);
    }
  }
  return { jobs: [...byId.values()], skipped };
}

export function mergeJobs(existing: readonly ArrayFile[], imported: readonly ImportedJob[], exclude: ReadonlySet<string> = new Set()): JobPlan {
  const files = new Map(existing.map((f) => [f.name, { name: f.name, text: f.text as string | undefined, jobs: [...f.items], dirty: false }]));
  // Ids are the owner's job numbers; a hand-written file may hold one as a JSON number (the schema allows it).
  const located = new Map<string, { file: string; index: number }>();
  for (const file of files.values()) {
    file.jobs.forEach((job, index) => {
      const id = typeof job.id === 'number' ? String(job.id) : job.id;
      if (typeof id === 'string' && !located.has(id)) located.set(id, { file: file.name, index });
    });
  }

  const changes: Change[] = [];
  let unchanged = 0;
  for (const entry of imported) {
    const { id } = entry.job;
    if (exclude.has(id)) continue;
    const at = located.get(id);
    if (at) {
      const file = files.get(at.file)!;
      const current = file.jobs[at.index]!;
      const next = updateJob(current, entry);
      const fields = JOB_KEYS.filter((k) => current[k] !== next[k]);
      if (fields.length === 0) {
        unchanged++;
        continue;
      }
      file.jobs[at.index] = next;
      file.dirty = true;
      changes.push({ kind: 'updated', id, file: file.name, fields, origin: entry.origin });
      continue;
    }
    const name = `${entry.job.completed.slice(0, 7)}.json`;
    let file = files.get(name);
    if (!file) files.set(name, (file = { name, text: undefined, jobs: [], dirty: false }));
    located.set(id, { file: name, index: file.jobs.length });
    file.jobs.push(orderKeys(entry.job));
    file.dirty = true;
    changes.push({ kind: 'added', id, file: name, fields: [], origin: entry.origin });
  }

  const writes = new Map<string, string>();
  for (const file of files.values()) {
    if (!file.dirty) continue;
    file.jobs.sort((a, b) => compareText(String(a.completed), String(b.completed)) || compareText(String(a.id), String(b.id)));
    const text = renderReviewFile(file.jobs);
    if (text !== file.text) writes.set(file.name, text);
  }
  const after = [...files.values()].map(({ name, jobs }) => ({ name, jobs }));
  after.sort((a, b) => compareText(a.name, b.name));
  return { writes, changes, unchanged, files: after };
}

/**
 * Plans the import and checks the content it would leave with the build's validation: a job that
 * would make it invalid is refused (skipped, its file left as it was); problems the folder already had
 * are returned as `notes`, since the build reports them anyway.
 */
export function planJobImport(
  existing: readonly ArrayFile[],
  imported: readonly ImportedJob[],
  folder: { business: unknown; reviewFiles: readonly RawFile[] },
): { plan: JobPlan; refused: Skip[]; notes: ContentProblem[] } {
  const exclude = new Set<string>();
  const refused: Skip[] = [];
  for (;;) {
    const plan = mergeJobs(existing, imported, exclude);
    if (plan.writes.size === 0) return { plan, refused, notes: [] };
    const checked = parseContent({
      business: { file: 'business.json', data: folder.business },
      reviewFiles: [...folder.reviewFiles],
      jobFiles: plan.files.map((f) => ({ file: `jobs/${f.name}`, data: f.jobs })),
    });
    if (checked.ok) return { plan, refused, notes: [] };
    const touched = new Map(plan.changes.map((c) => [c.id, c]));
    const caused = checked.problems.filter((p) => p.job !== undefined && touched.has(p.job) && !exclude.has(p.job));
    if (caused.length === 0) return { plan, refused, notes: checked.problems };
    for (const problem of caused) {
      exclude.add(problem.job!);
      const change = touched.get(problem.job!)!;
      refused.push({ origin: change.origin ?? { file: change.file }, reason: 'invalid', field: problem.field, message: problem.message });
    }
  }
}

/** The job with the export's members applied; the id as the folder writes it, and the owner's members, stay. */
function updateJob(current: Record<string, unknown>, imported: ImportedJob): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const key of imported.supplied) {
    if (key === 'id') continue;
    const value = imported.job[key];
    if (value === undefined) delete next[key];
    else next[key] = value;
  }
  return orderKeys(next);
}

/** The schema's member order, then the owner's own members as they were. */
function orderKeys(job: Record<string, unknown>): Record<string, unknown> {
  const ordered: Record<string, unknown> = {};
  for (const key of JOB_KEYS) if (job[key] !== undefined) ordered[key] = job[key];
  for (const [key, value] of Object.entries(job)) if (!(key in ordered) && value !== undefined) ordered[key] = value;
  return ordered;
}
