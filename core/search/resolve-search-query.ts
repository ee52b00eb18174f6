/**
 * The one way into the search engine, and the one judge of search input, for REST and MCP alike: the
 * schema check (search-issues.ts), then the names only the data can judge: `mentions_technician` (name
 * or alias) becomes the canonical name, `mentions_service` must be a known service id, `location` a
 * location id of business.json (exactly), `aspect` an id of the aspect set. Issues found before (REST's unknown and repeated names) are merged in front, so the
 * same bad input gives the same issues over REST and MCP, every problem at once.
 */
import type { ErrorIssue } from '../schemas/errors.ts';
import type { SearchQuery } from '../schemas/search.ts';
import { normalizeTerm } from './business-terms.ts';
import type { ReviewIndex } from './review-index.ts';
import { validateSearchInput } from './search-issues.ts';

/**
 * A valid search whose `mentions_technician` is a canonical technician name, whose
 * `mentions_service` is a service id of the business and whose `aspect` is an aspect id of the index;
 * `limit` has its default applied.
 */
export type ResolvedSearchQuery = SearchQuery;

export type SearchResolution = { ok: true; query: ResolvedSearchQuery } | { ok: false; issues: ErrorIssue[] };

function listTechnicians(index: ReviewIndex): string {
  return index.business.technicians
    .map((t) => (t.aliases.length === 0 ? t.name : `${t.name} (${t.aliases.join(', ')})`))
    .join('; ');
}

function listServices(index: ReviewIndex): string {
  return index.business.services.map((s) => `${s.id} (${s.name})`).join(', ');
}

function resolveTechnician(index: ReviewIndex, name: string): string | ErrorIssue {
  const canonical = index.terms.technicians.get(normalizeTerm(name));
  if (canonical !== undefined) return canonical;
  const known = index.business.technicians.length === 0 ? 'this business lists no technicians' : `known technicians: ${listTechnicians(index)}`;
  return {
    path: ['mentions_technician'],
    message: `no technician is named ${JSON.stringify(name)}; ${known}`,
    code: 'unknown_technician',
  };
}

function resolveService(index: ReviewIndex, id: string): string | ErrorIssue {
  const known = index.terms.services.get(normalizeTerm(id));
  if (known !== undefined) return known;
  return {
    path: ['mentions_service'],
    message: `no service has the id ${JSON.stringify(id)}; known service ids: ${listServices(index)}`,
    code: 'unknown_service',
  };
}

/** A location id, exactly as business.json has it. */
function resolveLocation(index: ReviewIndex, id: string): string | ErrorIssue {
  const ids = (index.business.locations ?? []).map((l) => l.id);
  if (ids.includes(id)) return id;
  const known = ids.length === 0 ? 'this business lists no locations' : `known locations: ${ids.join(', ')}`;
  return { path: ['location'], message: `no location has the id ${JSON.stringify(id)}; ${known}`, code: 'unknown_location' };
}

/** Aspect ids are lowercase slugs, so case and surrounding white space do not matter. */
function resolveAspect(index: ReviewIndex, id: string): string | ErrorIssue {
  const wanted = normalizeTerm(id);
  if (index.aspects.includes(wanted)) return wanted;
  const known = index.aspects.length === 0 ? 'no review mentions any aspect' : `known aspects: ${index.aspects.join(', ')}`;
  return { path: ['aspect'], message: `no aspect has the id ${JSON.stringify(id)}; ${known}`, code: 'unknown_aspect' };
}

export function resolveSearchQuery(input: unknown, index: ReviewIndex, earlierIssues: readonly ErrorIssue[] = []): SearchResolution {
  const validated = validateSearchInput(input);
  const issues = [...earlierIssues, ...(validated.ok ? [] : validated.issues)];
  const flagged = new Set(issues.map((issue) => issue.path[0]));
  const raw = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};

  // Checked even when other parameters failed, so one answer names every problem.
  let technician: string | undefined;
  if (typeof raw.mentions_technician === 'string' && !flagged.has('mentions_technician')) {
    const resolved = resolveTechnician(index, raw.mentions_technician);
    if (typeof resolved === 'string') technician = resolved;
    else issues.push(resolved);
  }
  let service: string | undefined;
  if (typeof raw.mentions_service === 'string' && !flagged.has('mentions_service')) {
    const resolved = resolveService(index, raw.mentions_service);
    if (typeof resolved === 'string') service = resolved;
    else issues.push(resolved);
  }
  if (typeof raw.location === 'string' && !flagged.has('location')) {
    const resolved = resolveLocation(index, raw.location);
    if (typeof resolved !== 'string') issues.push(resolved);
  }
  let aspect: string | undefined;
  if (typeof raw.aspect === 'string' && !flagged.has('aspect')) {
    const resolved = resolveAspect(index, raw.aspect);
    if (typeof resolved === 'string') aspect = resolved;
    else issues.push(resolved);
  }

  if (!validated.ok || issues.length > 0) return { ok: false, issues };
  const query: ResolvedSearchQuery = { ...validated.query };
  if (technician !== undefined) query.mentions_technician = technician;
  if (service !== undefined) query.mentions_service = service;
  if (aspect !== undefined) query.aspect = aspect;
  return { ok: true, query };
}

export type LocationFilter = { ok: true; location: string | undefined } | { ok: false; issues: ErrorIssue[] };

/**
 * A `location` filter on its own (absent, or a value to judge), for the lists and figures that take no other
 * search filter (since, the rating summary): judged by resolveSearchQuery, so an unknown id gets the same
 * issue, naming the known ids, everywhere.
 */
export function resolveLocationFilter(index: ReviewIndex, location: unknown, earlierIssues: readonly ErrorIssue[] = []): LocationFilter {
  if (location === undefined && earlierIssues.length === 0) return { ok: true, location: undefined };
  const resolved = resolveSearchQuery({ location }, index, earlierIssues);
  return resolved.ok ? { ok: true, location: resolved.query.location } : resolved;
}
