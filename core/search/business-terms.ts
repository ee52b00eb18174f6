/**
 * How a caller names a technician or a service in a search. Technicians: canonical name or alias,
 * case-insensitively, surrounding white space ignored and inner runs of white space counted as one space
 * (the same normalisation mention detection uses on review text). Services: the service id, likewise
 * case- and white-space-insensitive (ids are lowercase slugs, so nothing else can collide).
 */
import type { PublishedBusiness } from '../schemas/published.ts';

export type BusinessTerms = {
  /** Normalised name or alias → canonical technician name. */
  technicians: ReadonlyMap<string, string>;
  /** Normalised id → service id. */
  services: ReadonlyMap<string, string>;
};

export function normalizeTerm(term: string): string {
  return term.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function buildBusinessTerms(business: PublishedBusiness): BusinessTerms {
  const technicians = new Map<string, string>();
  // Canonical names first, so a name always means its own technician even if it were someone's alias.
  for (const technician of business.technicians) technicians.set(normalizeTerm(technician.name), technician.name);
  for (const technician of business.technicians) {
    for (const alias of technician.aliases) {
      const term = normalizeTerm(alias);
      if (!technicians.has(term)) technicians.set(term, technician.name);
    }
  }
  const services = new Map<string, string>();
  for (const service of business.services) services.set(normalizeTerm(service.id), service.id);
  return { technicians, services };
}
