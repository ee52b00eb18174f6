/**
 * How an agent may name a service or a technician in any tool, so its first call works: a service by
 * id, name or alias ("water-heater", "Water Heater Repair & Installation", "water heaters"), a
 * technician by name, alias or a first name only one technician has. Case, white space and a plural
 * "s" do not matter. A name that matches nothing is passed on unchanged, so the tool's own answer
 * lists the known ones.
 */
import type { PublishedBusiness } from '../../../core/schemas/published.ts';
import { normalizeTerm } from '../../../core/search/business-terms.ts';

/** The service id `wanted` names, or `wanted` itself. */
export function resolveServiceName(business: PublishedBusiness, wanted: string): string {
  const key = singular(wanted);
  const found = business.services.find((s) => [s.id, s.name, ...s.aliases].some((term) => singular(term) === key));
  return found?.id ?? wanted;
}

/** The canonical technician name `wanted` names, or `wanted` itself. */
export function resolveTechnicianName(business: PublishedBusiness, wanted: string): string {
  const key = normalizeTerm(wanted);
  const exact = business.technicians.find((t) => [t.name, ...t.aliases].some((term) => normalizeTerm(term) === key));
  if (exact !== undefined) return exact.name;
  const byFirstName = business.technicians.filter((t) => normalizeTerm(t.name).split(' ')[0] === key);
  return byFirstName.length === 1 ? byFirstName[0]!.name : wanted;
}

/** The same arguments with `mentions_service` and `mentions_technician` resolved, when they are strings. */
export function resolveNamedArguments<T extends Record<string, unknown>>(business: PublishedBusiness, args: T): T {
  const resolved: Record<string, unknown> = { ...args };
  if (typeof args.mentions_service === 'string') resolved.mentions_service = resolveServiceName(business, args.mentions_service);
  if (typeof args.mentions_technician === 'string') resolved.mentions_technician = resolveTechnicianName(business, args.mentions_technician);
  return resolved as T;
}

/** Lowercase, white space folded, and each word's plural "s" dropped ("Water Heaters" → "water heater"). */
function singular(term: string): string {
  return normalizeTerm(term)
    .split(' ')
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word))
    .join(' ');
}
