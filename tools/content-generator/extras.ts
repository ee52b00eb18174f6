/**
 * The parts of a review around its text: the author's display name, the title, and the owner's
 * reply, each consistent with the rating and with what the text actually complains about.
 */
import type { Random } from './prng.ts';
import type { ServiceProfile } from './business.ts';
import { OFFICE_PHONE } from './business.ts';
import type { Point } from './plan.ts';
import { capitalize } from './template.ts';
import { FIRST_NAMES, LAST_NAMES } from './vocabulary/people.ts';
import * as replies from './vocabulary/responses.ts';
import * as titles from './vocabulary/titles.ts';

export type Author = { display: string; /** How the owner addresses them. */ greeting: string };

export function pickAuthor(rng: Random): Author {
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const style = rng.weighted([['initial', 50], ['first-initial', 14], ['full', 18], ['first', 9], ['lower', 4], ['family', 3], ['couple', 2]] as const);
  switch (style) {
    case 'initial':
      return { display: `${first} ${last[0]}.`, greeting: first };
    case 'first-initial':
      return { display: `${first[0]}. ${last}`, greeting: `${first[0]}. ${last}` };
    case 'full':
      return { display: `${first} ${last}`, greeting: first };
    case 'first':
      return { display: first, greeting: first };
    case 'lower':
      return { display: `${first.toLowerCase().replace(' ', '')} ${last[0]!.toLowerCase()}`, greeting: first };
    case 'family':
      return { display: `The ${last} family`, greeting: `${last} family` };
    case 'couple': {
      const partner = rng.pick(FIRST_NAMES);
      return { display: `${first} and ${partner} ${last[0]}.`, greeting: `${first} and ${partner}` };
    }
  }
}

export function writeTitle(rating: number, points: readonly Point[], service: ServiceProfile, rng: Random): string {
  const praise = points.find((p) => p.polarity === 'praise');
  const complaint = points.find((p) => p.polarity === 'complaint') ?? points.find((p) => p.polarity === 'mild');
  if (rating >= 4) {
    if (rating === 4 && complaint && rng.chance(0.3)) return pickMixedTitle(points, rng);
    const roll = rng.next();
    if (praise && roll < 0.35) return rng.pick(titles.ASPECT_PRAISE_TITLES[praise.aspect]);
    if (service.kind === 'repair' && roll > 0.82 && !points.some((p) => p.aspect === 'quality' && p.polarity !== 'praise')) {
      return rng.pick(titles.SERVICE_TITLES).replace('{Unit}', capitalize(service.unit)).replace('{unit}', service.unit);
    }
    return rng.pick(titles.PRAISE_TITLES);
  }
  if (rating === 3) {
    const serious = points.find((p) => p.polarity === 'complaint');
    return serious && rng.chance(0.35) ? rng.pick(titles.ASPECT_COMPLAINT_TITLES[serious.aspect]) : pickMixedTitle(points, rng);
  }
  return complaint && rng.chance(0.55) ? rng.pick(titles.ASPECT_COMPLAINT_TITLES[complaint.aspect]) : rng.pick(titles.COMPLAINT_TITLES);
}

/** A mixed title naming aspects only when the review praises and faults exactly those. */
function pickMixedTitle(points: readonly Point[], rng: Random): string {
  const says = (aspects: readonly string[], praised: boolean) =>
    points.some((p) => aspects.includes(p.aspect) && (p.polarity === 'praise') === praised);
  const fitting = titles.ASPECT_MIXED_TITLES.filter((t) => says(t.praise, true) && says(t.complaint, false)).map((t) => t.title);
  return rng.pick([...titles.MIXED_TITLES, ...fitting]);
}

export type ReplyInput = {
  rating: number;
  verified: boolean;
  points: readonly Point[];
  author: Author;
  /** The technician's first name when the review names or tags them. */
  techFirstName: string | undefined;
  service: ServiceProfile;
  /** The telephone of the shop the review is of, as the owner writes it; the office's by default. */
  phone?: string;
};

export function writeReply(input: ReplyInput, rng: Random): string {
  const { rating, points, service } = input;
  const parts: string[] = [];
  if (!input.verified && rating <= 2) {
    parts.push(rng.pick(replies.NO_RECORD_REPLIES));
  } else if (rating >= 4) {
    parts.push(rng.pick(replies.THANKS_OPENINGS));
    parts.push(...rng.sample(replies.THANKS_BODIES, rng.int(1, 2)));
    if (rating === 4 && rng.chance(0.5)) parts.push(rng.pick(replies.FOUR_STAR_NOTES));
    parts.push(rng.pick(replies.THANKS_CLOSINGS));
  } else {
    const complaint = points.find((p) => p.polarity === 'complaint') ?? points.find((p) => p.polarity === 'mild');
    const lukewarm = rating === 3;
    parts.push(rng.pick(lukewarm ? replies.LUKEWARM_OPENINGS : replies.APOLOGY_OPENINGS));
    if (complaint) {
      const issue = rng.pick(replies.ISSUES[complaint.aspect]);
      const body = rng.pick(lukewarm ? replies.LUKEWARM_BODIES : replies.APOLOGY_BODIES);
      parts.push(body.replace('{issue}', issue).replace('{Issue}', capitalize(issue)));
    }
    const actions = lukewarm ? replies.LUKEWARM_ACTIONS : replies.APOLOGY_ACTIONS;
    parts.push(rng.pick(complaint?.aspect === 'price' && !lukewarm ? [...actions, ...replies.INVOICE_ACTIONS] : actions));
  }
  parts.push(rng.pick(replies.SIGNATURES));
  const text = parts
    .filter((p) => p.length > 0)
    .map((p) => capitalize(p))
    .join(' ');
  return text
    .replaceAll('{name}', input.author.greeting)
    .replaceAll('{tech}', input.techFirstName ?? 'our team')
    .replace(/^our team/, 'Our team')
    .replace(/([.!] )our team/g, '$1Our team')
    .replaceAll('{unit}', service.unit)
    .replaceAll('{phone}', input.phone ?? OFFICE_PHONE)
    .replaceAll('{owner}', replies.OWNER_FIRST_NAME);
}
