/**
 * The demo's jobs (issue 42 item 7): the owner's job records, `jobs/YYYY-MM.json`, as a job tool exports
 * them (with the customer's name and the invoice total, which are never published). Most verified
 * reviews come from a job completed a few days before them and name it (`job`); many jobs get no review,
 * as in a real business. Drawn from their own stream, so the reviews stay what they were.
 */
import type { JobContent, ReviewContent } from '../../core/schemas/content.ts';
import { createRandom } from './prng.ts';
import { addDays, type ReviewFacts } from './reviews.ts';
import { BUSINESS } from './business.ts';
import { compareText } from '../../core/text/text-rules.ts';

/** Of the verified reviews, the share that names its job. */
const TIED = 0.86;
/** Jobs with no review, per review of the month. */
const UNREVIEWED_PER_REVIEW = 0.7;
const FIRST_NAMES = ['Dana', 'Chris', 'Pat', 'Morgan', 'Jamie', 'Alex', 'Sam', 'Taylor', 'Jordan', 'Casey'];

/** The month's jobs, and each review tied to one given its `job`. Job ids run on from `firstNumber`. */
export function generateMonthJobs(month: string, reviews: ReviewContent[], facts: ReadonlyMap<string, ReviewFacts>, seed: string, firstNumber: number): JobContent[] {
  const rng = createRandom(`${seed}|${month}|jobs`);
  let number = firstNumber;
  const jobs: JobContent[] = [];
  const customer = () => `${rng.pick(FIRST_NAMES)} ${String.fromCharCode(65 + rng.int(0, 25))}.`;
  for (const review of reviews) {
    if (!review.verified || !rng.chance(TIED)) continue;
    const fact = facts.get(review.id)!;
    const id = `J-${number++}`;
    // Completed 0 to 6 days before the review (a review never comes before its job).
    const completed = addDays(review.date, -rng.int(0, 6), review.date);
    jobs.push({ id, completed, service: fact.service, technician: fact.technician, ...(fact.area === undefined ? {} : { area: fact.area }), customer: customer(), total: rng.int(90, 2400) });
    review.job = id;
  }
  const lastDay = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();
  for (let i = 0; i < Math.round(reviews.length * UNREVIEWED_PER_REVIEW); i++) {
    const service = rng.pick(BUSINESS.services).id;
    const completed = `${month}-${String(rng.int(1, lastDay)).padStart(2, '0')}`;
    const area = rng.chance(0.87) ? rng.pick(BUSINESS.service_areas) : undefined;
    jobs.push({ id: `J-${number++}`, completed, service, technician: rng.pick(BUSINESS.technicians).name, ...(area === undefined ? {} : { area }), customer: customer(), total: rng.int(90, 2400) });
  }
  return jobs.sort((a, b) => compareText(a.completed, b.completed));
}
