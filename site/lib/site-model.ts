/**
 * What the human pages show, derived once per build from the dataset and the insights: months with
 * their neighbours, technicians and services with their reviews and pages, and the list of every
 * page (the sitemap and the pages' own getStaticPaths read the same list, so they cannot disagree).
 */
import type { EntityInsight, Insights } from '../../core/schemas/insights.ts';
import type { PublishedReview, ReviewsDataset } from '../../core/schemas/published.ts';
import { getNewestChange } from '../../core/dates/latest-change.ts';
import { archivePath, assignTechnicianSlugs, locationPath, PATHS, servicePath, technicianPath } from '../../core/urls.ts';
import { getBuildData } from './build-data.ts';
import { listLocationNames } from '../../core/pages/review-card.ts';
import { countEntityPages, ENTITY_PAGE_SIZE } from './entity-paging.ts';


export type MonthSummary = {
  month: string;
  path: string;
  count: number;
  average: number;
  /** Newest review or reply date in the month: the page's last change. */
  lastmod: string;
  reviews: PublishedReview[];
};

export type EntityPage = {
  kind: 'technician' | 'service' | 'location';
  name: string;
  /** The URL segment: the technician's slug, the service id or the location id. */
  key: string;
  path: string;
  insight: EntityInsight | undefined;
  /** Every review that mentions it (a location: every review of it), newest first. */
  reviews: PublishedReview[];
  pageCount: number;
  pathOfPage: (page: number) => string;
};

export type SitePage = { path: string; lastmod: string | null };

function summarizeMonths(reviews: readonly PublishedReview[]): MonthSummary[] {
  const byMonth = new Map<string, PublishedReview[]>();
  for (const review of reviews) {
    const month = review.date.slice(0, 7);
    let list = byMonth.get(month);
    if (!list) byMonth.set(month, (list = []));
    list.push(review);
  }
  // Reviews arrive newest first, so months do too.
  return [...byMonth].map(([month, list]) => ({
    month,
    path: archivePath(month),
    count: list.length,
    average: list.reduce((sum, r) => sum + r.rating, 0) / list.length,
    lastmod: getNewestChange(list)!,
    reviews: list,
  }));
}

function listEntityPages(entity: EntityPage): SitePage[] {
  const lastmod = getNewestChange(entity.reviews) ?? null;
  return Array.from({ length: entity.pageCount }, (_, i) => ({ path: entity.pathOfPage(i + 1), lastmod }));
}

function describeEntity(
  kind: EntityPage['kind'],
  name: string,
  key: string,
  insight: EntityInsight | undefined,
  reviews: PublishedReview[],
  pathOfPage: (page: number) => string,
): EntityPage {
  return { kind, name, key, path: pathOfPage(1), insight, reviews, pageCount: countEntityPages(reviews.length), pathOfPage };
}

function buildEntityPages(dataset: ReviewsDataset, insights: Insights): { technicians: EntityPage[]; services: EntityPage[]; locations: EntityPage[] } {
  const slugs = assignTechnicianSlugs(dataset.business.technicians.map((t) => t.name));
  const technicianInsight = new Map(insights.entities.technicians.map((e) => [e.name, e]));
  const serviceInsight = new Map(insights.entities.services.map((e) => [e.id, e]));
  const byTechnician = new Map<string, PublishedReview[]>(dataset.business.technicians.map((t) => [t.name, []]));
  const byService = new Map<string, PublishedReview[]>(dataset.business.services.map((s) => [s.id, []]));
  for (const review of dataset.reviews) {
    for (const name of review.technicians) byTechnician.get(name)?.push(review);
    for (const id of review.services) byService.get(id)?.push(review);
  }
  const technicians = dataset.business.technicians.map(({ name }) => {
    const slug = slugs.get(name)!;
    return describeEntity('technician', name, slug, technicianInsight.get(name), byTechnician.get(name)!, (page) => technicianPath(slug, page));
  });
  const services = dataset.business.services.map(({ id, name }) =>
    describeEntity('service', name, id, serviceInsight.get(id), byService.get(id)!, (page) => servicePath(id, page)),
  );
  const locationInsight = new Map((insights.entities.locations ?? []).map((e) => [e.id, e]));
  const locations = (dataset.business.locations ?? []).map(({ id, name }) =>
    describeEntity('location', name, id, locationInsight.get(id), dataset.reviews.filter((r) => r.location === id), (page) => locationPath(id, page)),
  );
  return { technicians, services, locations };
}

async function loadSiteModel() {
  const { dataset, insights, pageText } = await getBuildData();
  const months = summarizeMonths(dataset.reviews);
  const { technicians, services, locations } = buildEntityPages(dataset, insights);
  const reviewsById = new Map(dataset.reviews.map((r) => [r.id, r]));
  // In the site's language (core/insights/page-text.ts).
  const aspectLabels = new Map(pageText.aspects.map((a) => [a.id, a.label]));
  const serviceNames = new Map(dataset.business.services.map((s) => [s.id, s.name]));
  const technicianPaths = new Map(technicians.map((t) => [t.name, t.path]));
  const locationNames = listLocationNames(dataset.business);
  const newest = getNewestChange(dataset.reviews) ?? null;

  const pages: SitePage[] = [
    { path: PATHS.home, lastmod: newest },
    { path: PATHS.reviewsIndex, lastmod: newest },
    ...months.map((m) => ({ path: m.path, lastmod: m.lastmod })),
    { path: PATHS.technicians, lastmod: newest },
    ...technicians.flatMap(listEntityPages),
    { path: PATHS.services, lastmod: newest },
    ...services.flatMap(listEntityPages),
    ...(dataset.business.locations === undefined ? [] : [{ path: PATHS.locations, lastmod: newest }, ...locations.flatMap(listEntityPages)]),
    { path: PATHS.about, lastmod: null },
    { path: PATHS.aboutReviews, lastmod: null },
    { path: PATHS.logPrefix, lastmod: null },
    { path: PATHS.developers, lastmod: null },
    { path: PATHS.apiReference, lastmod: null },
  ];
  return { months, technicians, services, locations, reviewsById, aspectLabels, serviceNames, technicianPaths, locationNames, pages };
}

export type SiteModel = Awaited<ReturnType<typeof loadSiteModel>>;

let loading: Promise<SiteModel> | undefined;

export function getSiteModel(): Promise<SiteModel> {
  return (loading ??= loadSiteModel());
}

/** The reviews on page `page` (1-based) of an entity. */
export function reviewsOfPage(entity: EntityPage, page: number): PublishedReview[] {
  return entity.reviews.slice((page - 1) * ENTITY_PAGE_SIZE, page * ENTITY_PAGE_SIZE);
}

/**
 * The static paths of the technicians' or the services' pages: the `[...path]` rest of each page's
 * path below its section (`dana-smith/`, `dana-smith/page/2/`), with the entity and page as props.
 */
export async function listEntityStaticPaths(section: 'technicians' | 'services' | 'locations') {
  const entities = (await getSiteModel())[section];
  return entities.flatMap((entity) =>
    Array.from({ length: entity.pageCount }, (_, i) => ({
      params: { path: entity.pathOfPage(i + 1).slice(PATHS[section].length, -1) },
      props: { entity, page: i + 1 },
    })),
  );
}
