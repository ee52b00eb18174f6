/**
 * What the layout and the review card need, for prerendered and on-demand pages alike. A prerendered
 * page reads the build's own data (build-data.ts, site-model.ts); a page rendered on demand by the
 * sidecar (the search page) gets the live data of the build being served in `Astro.locals.live`,
 * and must not load the content folder, which the running service may not even have.
 */
import type { LiveData } from '../../core/dataset/live-data.ts';
import type { PublishedBusiness, ReviewsDataset } from '../../core/schemas/published.ts';
import { assignTechnicianSlugs, technicianPath, type ServiceUrls } from '../../core/urls.ts';
import { getBuildData } from './build-data.ts';
import { getSiteModel } from './site-model.ts';

export type PageData = { urls: ServiceUrls; dataset: ReviewsDataset };
export type ReviewLinks = { serviceNames: ReadonlyMap<string, string>; technicianPaths: ReadonlyMap<string, string> };

export async function getPageData(locals: App.Locals): Promise<PageData> {
  return locals.live ?? (await getBuildData());
}

const linksOfBusiness = new WeakMap<PublishedBusiness, ReviewLinks>();

/** Names of services and pages of technicians, computed the way site-model.ts does (one slug rule, core/urls.ts). */
export async function getReviewLinks(locals: App.Locals): Promise<ReviewLinks> {
  const live: LiveData | undefined = locals.live;
  if (live === undefined) return getSiteModel();
  const business = live.dataset.business;
  let links = linksOfBusiness.get(business);
  if (links === undefined) {
    const slugs = assignTechnicianSlugs(business.technicians.map((t) => t.name));
    links = {
      serviceNames: new Map(business.services.map((s) => [s.id, s.name])),
      technicianPaths: new Map([...slugs].map(([name, slug]) => [name, technicianPath(slug)])),
    };
    linksOfBusiness.set(business, links);
  }
  return links;
}

/**
 * When each review's first entry in the review log was published (core/log/log-summary.ts), on prerendered pages; the
 * search page, rendered on demand, shows none.
 */
export async function getLogEntries(locals: App.Locals): Promise<Readonly<Record<string, string>> | undefined> {
  if (locals.live !== undefined) return undefined;
  return (await getBuildData()).log?.first_logged;
}
