/**
 * What a review is going to say before any word is written: how long it is, and which aspects it
 * praises or complains about. The mix follows the rating, so a 5-star review is praise with at most
 * a small gripe, a 3-star one is genuinely mixed, and a 1-star one may still say the tech was nice.
 */
import type { Random } from './prng.ts';
import type { TechnicianProfile } from './business.ts';
import { ASPECTS, COMPLAINT_WEIGHTS, PRAISE_WEIGHTS, type Aspect } from './vocabulary/aspects.ts';

export type Polarity = 'praise' | 'mild' | 'complaint';
export type Point = { aspect: Aspect; polarity: Polarity };

type Counts = readonly (readonly [number, number])[];

const SENTENCE_COUNTS: Record<number, Counts> = {
  5: [[1, 12], [2, 25], [3, 30], [4, 22], [5, 11]],
  4: [[1, 6], [2, 24], [3, 33], [4, 24], [5, 13]],
  3: [[2, 20], [3, 35], [4, 30], [5, 15]],
  2: [[1, 4], [2, 15], [3, 31], [4, 30], [5, 20]],
  1: [[1, 6], [2, 16], [3, 30], [4, 28], [5, 20]],
};

export function pickSentenceCount(rating: number, rng: Random): number {
  return rng.weighted(SENTENCE_COUNTS[rating]!);
}

/** Praise / complaint points for a review, in the order they will be written. */
export function planPoints(rating: number, tech: TechnicianProfile, rng: Random): Point[] {
  const praise = (n: number) => ({ polarity: 'praise' as const, n });
  const complaint = (n: number) => ({ polarity: 'complaint' as const, n });
  const mild = (n: number) => ({ polarity: 'mild' as const, n });
  let wanted: { polarity: Polarity; n: number }[];
  switch (rating) {
    case 5:
      wanted = [praise(rng.weighted([[1, 25], [2, 40], [3, 25], [4, 10]]))];
      if (rng.chance(0.04)) wanted.push(mild(1));
      break;
    case 4:
      wanted = [praise(rng.weighted([[1, 30], [2, 45], [3, 25]]))];
      if (rng.chance(0.5)) wanted.push(mild(1));
      else if (rng.chance(0.2)) wanted.push(complaint(1));
      break;
    case 3:
      wanted = [praise(rng.int(1, 2)), rng.chance(0.6) ? complaint(rng.int(1, 2)) : mild(rng.int(1, 2))];
      break;
    case 2:
      wanted = [complaint(rng.int(2, 3))];
      if (rng.chance(0.45)) wanted.unshift(praise(1));
      break;
    default:
      wanted = [complaint(rng.weighted([[1, 20], [2, 40], [3, 30], [4, 10]]))];
      if (rng.chance(0.25)) wanted.unshift(praise(1));
  }

  const used = new Set<Aspect>();
  const points: Point[] = [];
  for (const { polarity, n } of wanted) {
    for (let i = 0; i < n; i++) {
      const aspect = pickAspect(polarity, rating, tech, used, rng);
      used.add(aspect);
      points.push({ aspect, polarity });
    }
  }
  return points;
}

/** The kind words a disappointed customer still has: the person was nice, at least they came quickly. */
const CONSOLATIONS: ReadonlySet<Aspect> = new Set(['professionalism', 'punctuality', 'scheduling', 'communication', 'cleanliness']);
/** What a happy customer still grumbles about; a 4-star review does not say the repair failed. */
const GRUMBLES: ReadonlySet<Aspect> = new Set(['punctuality', 'communication', 'scheduling', 'price', 'cleanliness', 'speed']);

function pickAspect(polarity: Polarity, rating: number, tech: TechnicianProfile, used: Set<Aspect>, rng: Random): Aspect {
  const base = polarity === 'praise' ? PRAISE_WEIGHTS : COMPLAINT_WEIGHTS;
  const favoured = polarity === 'praise' ? tech.strength : tech.weakness;
  const allowed =
    polarity === 'praise' && rating <= 2
      ? ASPECTS.filter((a) => CONSOLATIONS.has(a))
      : polarity !== 'praise' && rating >= 4
        ? ASPECTS.filter((a) => GRUMBLES.has(a))
        : ASPECTS;
  const entries = allowed.filter((a) => !used.has(a)).map(
    (a) => [a, base[a] * (a === favoured ? (polarity === 'praise' ? 2.5 : 4) : 1)] as const,
  );
  return rng.weighted(entries);
}
