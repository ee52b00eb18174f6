/**
 * Per technician, service and service area: how many reviews mention them, their mean rating, their
 * aspect profile and their quarterly trend. A review counts for an entity when its published
 * `technicians`, `services` or `service_area` names it (the build has already resolved names in the
 * text to canonical ones, CONTRACT.md "Published shapes").
 */
import type { AspectModel } from './aspect-model.ts';
import type { CountCorrector } from './aspect-accuracy.ts';
import type { AnalyzedReview } from './analyzed-review.ts';
import { isUnreadable } from './read-as-english.ts';
import { computeMean, countPolarity, createCounter, toStats } from './figures.ts';
import type { PolarityCounter } from './figures.ts';
import type { EntityInsight } from '../schemas/insights.ts';
import { selectVerdicts } from './verdicts.ts';
import { compareText } from '../text/text-rules.ts';

/** The business's own lists, so entities without reviews appear too, and services get their names. */
export type BusinessEntities = {
  services: readonly { id: string; name: string }[];
  technicians: readonly { name: string; aliases?: readonly string[] }[];
  service_areas: readonly string[];
  /** A business's locations (issue 43); without them the insights have no `locations` entities. */
  locations?: readonly { id: string; name: string }[];
};

const RECENT_REVIEWS = 5;

type Accumulator = {
  /** Seeds the bootstrap of the entity's estimates. */
  key: string;
  name: string;
  id: string | null;
  filter: Record<string, string> | null;
  reviews: number;
  /** Of `reviews`, those the analyser read (read-as-english.ts): its aspect counts are estimated over these. */
  read: number;
  ratingSum: number;
  first: string | null;
  last: string | null;
  aspects: PolarityCounter[];
  quarters: Map<string, { reviews: number; ratingSum: number }>;
  recent: string[];
};

export function computeEntityInsights(
  analyzed: readonly AnalyzedReview[],
  model: AspectModel,
  quarters: readonly string[],
  business: BusinessEntities | undefined,
  corrector: CountCorrector,
): { technicians: EntityInsight[]; services: EntityInsight[]; service_areas: EntityInsight[]; locations?: EntityInsight[] } {
  const create = (kind: string, name: string, id: string | null, filter: Record<string, string> | null): Accumulator => ({
    key: `${kind}:${id ?? name}`,
    name,
    id,
    filter,
    reviews: 0,
    read: 0,
    ratingSum: 0,
    first: null,
    last: null,
    aspects: model.aspects.map(() => createCounter()),
    quarters: new Map(quarters.map((q) => [q, { reviews: 0, ratingSum: 0 }])),
    recent: [],
  });
  const serviceNames = new Map((business?.services ?? []).map((s) => [s.id, s.name]));
  const technicians = new Map<string, Accumulator>();
  const services = new Map<string, Accumulator>();
  const areas = new Map<string, Accumulator>();
  const technicianOf = (name: string) => getOrCreate(technicians, name, () => create('technician', name, null, { mentions_technician: name }));
  const serviceOf = (id: string) => getOrCreate(services, id, () => create('service', serviceNames.get(id) ?? id, id, { mentions_service: id }));
  const areaOf = (name: string) => getOrCreate(areas, name, () => create('area', name, null, null));
  for (const t of business?.technicians ?? []) technicianOf(t.name);
  for (const s of business?.services ?? []) serviceOf(s.id);
  for (const a of business?.service_areas ?? []) areaOf(a);
  // Keyed by id, in business.json order; a location is counted only from the reviews that name it.
  const locations = new Map((business?.locations ?? []).map((l) => [l.id, create('location', l.name, l.id, { location: l.id })]));

  for (const item of analyzed) {
    const { review } = item;
    const readable = !isUnreadable(review);
    const targets = [
      ...new Set(review.technicians.map(technicianOf)),
      ...new Set(review.services.map(serviceOf)),
      ...(review.service_area === null ? [] : [areaOf(review.service_area)]),
      ...(review.location === undefined || !locations.has(review.location) ? [] : [locations.get(review.location)!]),
    ];
    for (const entity of targets) {
      entity.reviews++;
      if (readable) entity.read++;
      entity.ratingSum += review.rating;
      entity.last ??= review.date;
      entity.first = review.date;
      if (entity.recent.length < RECENT_REVIEWS) entity.recent.push(review.id);
      const quarter = entity.quarters.get(item.quarter);
      if (quarter !== undefined) {
        quarter.reviews++;
        quarter.ratingSum += review.rating;
      }
      for (const [aspect, polarity] of item.polarities) {
        const counter = entity.aspects[aspect];
        if (counter !== undefined) countPolarity(counter, polarity);
      }
    }
  }
  const finish = (map: Map<string, Accumulator>) =>
    [...map.values()]
      .sort((a, b) => b.reviews - a.reviews || compareText(a.name, b.name))
      .map((entity) => toEntityInsight(entity, model, corrector));
  const entities = { technicians: finish(technicians), services: finish(services), service_areas: finish(areas) };
  if (business?.locations === undefined) return entities;
  return { ...entities, locations: [...locations.values()].map((entity) => toEntityInsight(entity, model, corrector)) };
}

function toEntityInsight(entity: Accumulator, model: AspectModel, corrector: CountCorrector): EntityInsight {
  const profile = model.aspects.flatMap((aspect, i) => {
    const counter = entity.aspects[i] ?? createCounter();
    if (counter.mentions === 0) return [];
    return [{ aspect: aspect.id, ...toStats(counter), estimate: corrector.estimate(aspect.id, counter, entity.read, `${entity.key}:${aspect.id}`) }];
  });
  return {
    name: entity.name,
    id: entity.id,
    reviews: entity.reviews,
    average_rating: computeMean(entity.ratingSum, entity.reviews),
    first_date: entity.first,
    last_date: entity.last,
    aspects: profile,
    strengths: selectVerdicts(profile, 'strength').map((a) => a.aspect),
    concerns: selectVerdicts(profile, 'concern').map((a) => a.aspect),
    trend: [...entity.quarters].map(([quarter, q]) => ({
      quarter,
      reviews: q.reviews,
      average_rating: computeMean(q.ratingSum, q.reviews),
    })),
    recent_review_ids: entity.recent,
    filter: entity.filter,
  };
}

function getOrCreate<V>(map: Map<string, V>, key: string, create: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
