/**
 * Fills the `{slot}`s of the phrase banks for one review. A clause may start with `R|` (repairs only)
 * or `I|` (installs only); a clause whose slot has no value for this review (no `{area}`, a service
 * with no `{upsell}`) is not usable, so callers draw from the usable ones only.
 *
 * Slots: {T} the technician (name or "the tech" on first use, then mostly a pronoun), {he} {him}
 * {his} {himself}, {thing} the equipment, {job}, {upsell}, {price}, {company}, {area}, {trade},
 * {very} / {really} optional intensifiers, {wait} {mins} {quick} {days} {window} {day} durations.
 */
import type { Random } from './prng.ts';
import type { ServiceProfile, TechnicianProfile } from './business.ts';
import { COMPANY_NAMES, TRADE_NOUNS, WORKER_NOUNS } from './business.ts';
import { INTENSIFIERS, NEGATIVE_INTENSIFIERS } from './vocabulary/framing.ts';

export type TextContext = {
  rng: Random;
  tech: TechnicianProfile;
  /** Aliases (first name first) as business.json lists them. */
  techAliases: readonly string[];
  /** Whether the reviewer refers to the technician by name at all. */
  namesTech: boolean;
  service: ServiceProfile;
  area: string | undefined;
  price: string;
  /** Set once the technician has been referred to; later references become pronouns. */
  techIntroduced: boolean;
  /** Set when a name or alias of the technician was written into the text. */
  techNamed: boolean;
};

const WAITS = ['two hours', 'three hours', 'almost four hours', 'an hour and a half', 'over an hour'];
const MINUTES = ['15 minutes', '20 minutes', 'half an hour', '10 minutes'];
const QUICK = ['an hour', 'two hours', '45 minutes', 'a couple of hours'];
const DAYS = ['two weeks', 'a week', 'five days', 'three days', 'ten days'];
const WINDOWS = ['8 to 10', '10 to 12', 'noon to 4', '8 to noon', '1 to 3'];
const WEEKDAYS = ['Saturday', 'Sunday', 'Sunday afternoon', 'holiday weekend', 'Friday evening'];

const SLOT = /\{(\w+)\}/g;

export function isUsable(template: string, ctx: TextContext): boolean {
  if (template.startsWith('R|') && ctx.service.kind !== 'repair') return false;
  if (template.startsWith('I|') && ctx.service.kind !== 'install') return false;
  if (template.includes('{area}') && ctx.area === undefined) return false;
  if (template.includes('{upsell}') && ctx.service.upsell === undefined) return false;
  return true;
}

/** A usable template from the list, or undefined when none is. */
export function pickUsable(templates: readonly string[], ctx: TextContext): string | undefined {
  for (let attempt = 0; attempt < 6; attempt++) {
    const candidate = ctx.rng.pick(templates);
    if (isUsable(candidate, ctx)) return candidate;
  }
  const usable = templates.filter((t) => isUsable(t, ctx));
  return usable.length > 0 ? ctx.rng.pick(usable) : undefined;
}

export function fill(template: string, ctx: TextContext): string {
  const body = template.startsWith('R|') || template.startsWith('I|') ? template.slice(2) : template;
  // An empty optional slot ({very}) leaves two spaces behind.
  return body.replace(SLOT, (_, slot: string) => fillSlot(slot, ctx)).replace(/ {2,}/g, ' ');
}

function fillSlot(slot: string, ctx: TextContext): string {
  const { rng, tech, service } = ctx;
  const she = tech.pronoun === 'she';
  switch (slot) {
    case 'T':
      return referToTech(ctx);
    case 'he':
      return she ? 'she' : 'he';
    case 'him':
      return she ? 'her' : 'him';
    case 'his':
      return she ? 'her' : 'his';
    case 'himself':
      return she ? 'herself' : 'himself';
    case 'thing':
      return rng.pick(service.things);
    case 'job':
      return rng.pick(service.jobs);
    case 'upsell':
      return service.upsell ?? 'a new system';
    case 'price':
      return ctx.price;
    case 'company':
      return rng.pick(COMPANY_NAMES);
    case 'area':
      return ctx.area ?? 'town';
    case 'trade':
      return rng.pick(TRADE_NOUNS[service.category]);
    case 'very':
      return rng.chance(0.55) ? rng.pick(INTENSIFIERS) : '';
    case 'really':
      return rng.chance(0.5) ? rng.pick(NEGATIVE_INTENSIFIERS) : '';
    case 'wait':
      return rng.pick(WAITS);
    case 'mins':
      return rng.pick(MINUTES);
    case 'quick':
      return rng.pick(QUICK);
    case 'days':
      return rng.pick(DAYS);
    case 'window':
      return rng.pick(WINDOWS);
    case 'day':
      return rng.pick(WEEKDAYS);
    case 'unit':
      return service.unit;
    case 'Unit':
      return capitalize(service.unit);
    default:
      throw new Error(`unknown template slot {${slot}}`);
  }
}

/** First reference: a name (full name or an alias) or "the tech"; later ones: mostly "he"/"she". */
function referToTech(ctx: TextContext): string {
  const { rng, tech } = ctx;
  if (!ctx.techIntroduced) {
    ctx.techIntroduced = true;
    if (!ctx.namesTech) return rng.pick(WORKER_NOUNS[ctx.service.category]);
    ctx.techNamed = true;
    return rng.chance(0.25) ? tech.name : rng.weighted(ctx.techAliases.map((a, i) => [a, i === 0 ? 3 : 1] as const));
  }
  if (rng.chance(0.75)) return tech.pronoun;
  if (!ctx.namesTech) return 'the tech';
  return ctx.techAliases[0] ?? tech.name;
}

export function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}

/** "$1,250" */
export function formatDollars(amount: number): string {
  return `$${String(amount).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
}
