/**
 * Validates the raw content folder (already read from disk) in one pass and reports every problem
 * together (STYLE.md "Parse once at the boundary"). Pure: reading files is read-content.ts's job.
 */
import { BusinessContentSchema, JobContentSchema, ReviewContentSchema } from '../schemas/content.ts';
import type { BusinessContent, JobContent, ReviewContent } from '../schemas/content.ts';
import { createMentionMatcher, findTermConflicts, type MentionMatcher } from '../mentions.ts';
import { type ContentProblem, type ContentResult, formatPath } from './problems.ts';
import { parseWithIssues } from '../schemas/issues.ts';

export type RawFile = { file: string; data: unknown };
export type RawContent = { business: RawFile; reviewFiles: RawFile[]; jobFiles?: RawFile[] };

export type Content = {
  business: BusinessContent;
  /** Every review, verified or not, in file order; publishing filters and sorts. */
  reviews: ReviewContent[];
  /** Every job of jobs/*.json, in file order (docs/log.md "Jobs"); none for a business without. */
  jobs: JobContent[];
  technicianMatcher: MentionMatcher;
  serviceMatcher: MentionMatcher;
};

export function technicianEntities(business: BusinessContent) {
  return business.technicians.map((t) => ({ key: t.name, terms: [t.name, ...t.aliases] }));
}

export function serviceEntities(business: BusinessContent) {
  return business.services.map((s) => ({ key: s.id, terms: [s.id, s.name, ...s.aliases] }));
}

export function parseContent(raw: RawContent): ContentResult<Content> {
  const problems: ContentProblem[] = [];
  const business = parseBusiness(raw.business, problems);
  const technicianMatcher = business && createMentionMatcher(technicianEntities(business));
  const serviceMatcher = business && createMentionMatcher(serviceEntities(business));
  const areas = new Map(business?.service_areas.map((a) => [a.toLowerCase(), a]));
  const locations = business?.locations?.map((l) => l.id) ?? [];

  const reviews: ReviewContent[] = [];
  const firstFileOfId = new Map<string, string>();
  for (const { file, data } of raw.reviewFiles) {
    if (!Array.isArray(data)) {
      problems.push({ file, message: 'must be a JSON array of reviews' });
      continue;
    }
    data.forEach((item, index) => {
      const label = itemLabel(item, index);
      const parsed = parseWithIssues(ReviewContentSchema, item);
      if (!parsed.ok) {
        for (const issue of parsed.issues) problems.push({ file, review: label, field: formatPath(issue.path), message: issue.message });
        return;
      }
      const review = parsed.value;
      const earlier = firstFileOfId.get(review.id);
      if (earlier !== undefined) {
        problems.push({ file, review: review.id, field: 'id', message: `duplicate id: already used in ${earlier}` });
        return;
      }
      firstFileOfId.set(review.id, file);
      if (technicianMatcher && serviceMatcher) {
        checkReferences(review, { technicianMatcher, serviceMatcher, areas, locations }, (field, message) =>
          problems.push({ file, review: review.id, field, message }),
        );
      }
      reviews.push(review);
    });
  }

  const jobs = technicianMatcher && serviceMatcher ? parseJobs(raw.jobFiles ?? [], { technicianMatcher, serviceMatcher, areas, locations }, problems) : [];
  checkJobLinks(reviews, jobs, firstFileOfId, problems);

  if (problems.length > 0 || !business || !technicianMatcher || !serviceMatcher) return { ok: false, problems };
  return { ok: true, value: { business, reviews, jobs, technicianMatcher, serviceMatcher } };
}

function parseBusiness(raw: RawFile, problems: ContentProblem[]): BusinessContent | undefined {
  const parsed = parseWithIssues(BusinessContentSchema, raw.data);
  if (!parsed.ok) {
    for (const issue of parsed.issues) problems.push({ file: raw.file, field: formatPath(issue.path), message: issue.message });
    return undefined;
  }
  const business = parsed.value;
  const before = problems.length;
  for (const { term, keys } of findTermConflicts(technicianEntities(business))) {
    problems.push({ file: raw.file, field: 'technicians', message: `"${term}" names both ${keys[0]} and ${keys[1]}` });
  }
  for (const { term, keys } of findTermConflicts(serviceEntities(business))) {
    problems.push({ file: raw.file, field: 'services', message: `"${term}" names both services ${keys[0]} and ${keys[1]}` });
  }
  const ids = business.services.map((s) => s.id);
  for (const id of new Set(ids.filter((id, i) => ids.indexOf(id) !== i))) {
    problems.push({ file: raw.file, field: 'services', message: `duplicate service id "${id}"` });
  }
  const locations = business.locations ?? [];
  for (const key of ['id', 'google_location'] as const) {
    const seen = new Set<string>();
    locations.forEach((location, i) => {
      const value = location[key];
      if (value === undefined) return;
      if (seen.has(value)) problems.push({ file: raw.file, field: `locations.${i}.${key}`, message: `duplicate location ${key === 'id' ? 'id' : 'google_location'} "${value}"` });
      seen.add(value);
    });
  }
  return problems.length === before ? business : undefined;
}

function checkReferences(
  review: ReviewContent,
  known: Known,
  report: (field: string, message: string) => void,
) {
  review.technicians?.forEach((name, i) => {
    if (known.technicianMatcher.resolve(name) === undefined) {
      report(`technicians.${i}`, `unknown technician "${name}" (not a name or alias in business.json)`);
    }
  });
  review.services?.forEach((id, i) => {
    if (known.serviceMatcher.resolve(id) !== id) report(`services.${i}`, `unknown service id "${id}"`);
  });
  if (review.service_area !== undefined && !known.areas.has(review.service_area.toLowerCase())) {
    report('service_area', `unknown service area "${review.service_area}" (not in business.json service_areas)`);
  }
  if (review.location !== undefined && !known.locations.includes(review.location)) {
    report(
      'location',
      known.locations.length === 0
        ? `unknown location "${review.location}": business.json lists no locations`
        : `unknown location "${review.location}" (the locations in business.json: ${known.locations.join(', ')})`,
    );
  }
  if (review.response && review.response.date < review.date) {
    report('response.date', `reply dated ${review.response.date} is before the review (${review.date})`);
  }
}

type Known = { technicianMatcher: MentionMatcher; serviceMatcher: MentionMatcher; areas: Map<string, string>; locations: readonly string[] };

/** jobs/*.json: arrays of jobs, each id once, naming only services, technicians and areas of business.json. */
function parseJobs(files: readonly RawFile[], known: Known, problems: ContentProblem[]): JobContent[] {
  const jobs: JobContent[] = [];
  const fileOfId = new Map<string, string>();
  for (const { file, data } of files) {
    if (!Array.isArray(data)) {
      problems.push({ file, message: 'must be a JSON array of jobs' });
      continue;
    }
    data.forEach((item, index) => {
      const parsed = parseWithIssues(JobContentSchema, item);
      if (!parsed.ok) {
        for (const issue of parsed.issues) problems.push({ file, job: itemLabel(item, index), field: formatPath(issue.path), message: issue.message });
        return;
      }
      const job = parsed.value;
      const report = (field: string, message: string) => problems.push({ file, job: job.id, field, message });
      const earlier = fileOfId.get(job.id);
      if (earlier !== undefined) return report('id', `duplicate job id: already used in ${earlier}`);
      fileOfId.set(job.id, file);
      if (known.serviceMatcher.resolve(job.service) !== job.service) report('service', `unknown service id "${job.service}"`);
      if (job.technician !== undefined && known.technicianMatcher.resolve(job.technician) === undefined) report('technician', `unknown technician "${job.technician}" (not a name or alias in business.json)`);
      if (job.area !== undefined && !known.areas.has(job.area.toLowerCase())) report('area', `unknown service area "${job.area}" (not in business.json service_areas)`);
      jobs.push({ ...job, ...(job.area === undefined ? {} : { area: known.areas.get(job.area.toLowerCase())! }) });
    });
  }
  return jobs;
}

/** A review names a job of jobs/*.json, and one job is the job of at most one review. */
function checkJobLinks(reviews: readonly ReviewContent[], jobs: readonly JobContent[], fileOfReview: ReadonlyMap<string, string>, problems: ContentProblem[]) {
  const known = new Set(jobs.map((j) => j.id));
  const reviewOfJob = new Map<string, string>();
  for (const review of reviews) {
    if (review.job === undefined) continue;
    const file = fileOfReview.get(review.id)!;
    if (!known.has(review.job)) {
      problems.push({ file, review: review.id, field: 'job', message: `no job "${review.job}" in jobs/*.json` });
      continue;
    }
    const other = reviewOfJob.get(review.job);
    if (other !== undefined) problems.push({ file, review: review.id, field: 'job', message: `job "${review.job}" is already the job of review ${other}: one job, at most one review` });
    else reviewOfJob.set(review.job, review.id);
  }
}

function itemLabel(item: unknown, index: number): string {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : `#${index}`;
}
