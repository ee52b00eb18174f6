/**
 * Validates the raw content folder (already read from disk) in one pass and reports every problem
 * together (STYLE.md "Parse once at the boundary"). Pure: reading files is read-content.ts's job.
 */
import { BusinessContentSchema, ReviewContentSchema } from '../schemas/content.ts';
import type { BusinessContent, ReviewContent } from '../schemas/content.ts';
import { createMentionMatcher, findTermConflicts, type MentionMatcher } from '../mentions.ts';
import { type ContentProblem, type ContentResult, formatPath } from './problems.ts';
import { parseWithIssues } from '../schemas/issues.ts';

export type RawFile = { file: string; data: unknown };
export type RawContent = { business: RawFile; reviewFiles: RawFile[] };

export type Content = {
  business: BusinessContent;
  /** Every review, verified or not, in file order; publishing filters and sorts. */
  reviews: ReviewContent[];
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

  const reviews: ReviewContent[] = [];
  const firstFileOfId = new Map<string, string>();
  for (const { file, data } of raw.reviewFiles) {
    if (!Array.isArray(data)) {
      problems.push({ file, message: 'must be a JSON array of reviews' });
      continue;
    }
    data.forEach((item, index) => {
      const label = reviewLabel(item, index);
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
        checkReferences(review, { technicianMatcher, serviceMatcher, areas }, (field, message) =>
          problems.push({ file, review: review.id, field, message }),
        );
      }
      reviews.push(review);
    });
  }

  if (problems.length > 0 || !business || !technicianMatcher || !serviceMatcher) return { ok: false, problems };
  return { ok: true, value: { business, reviews, technicianMatcher, serviceMatcher } };
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
  return problems.length === before ? business : undefined;
}

function checkReferences(
  review: ReviewContent,
  known: { technicianMatcher: MentionMatcher; serviceMatcher: MentionMatcher; areas: Map<string, string> },
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
  if (review.response && review.response.date < review.date) {
    report('response.date', `reply dated ${review.response.date} is before the review (${review.date})`);
  }
}

function reviewLabel(item: unknown, index: number): string {
  const id = (item as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 200 ? id : `#${index}`;
}
