/**
 * Everything around the aspect sentences: how customers start, how they introduce the technician,
 * how they sign off, and the one-line reviews that say it all in a few words.
 */
import type { Aspect } from './aspects.ts';

/** Context that is not about any one service. */
export const GENERAL_OPENERS: readonly string[] = [
  "We've used {company} for years.",
  'First time using {company}.',
  'A neighbor recommended {company}.',
  'We called {company} after another company flaked on us.',
  'This was our second time using {company}.',
  'We just moved to {area} and needed someone we could trust.',
  'Found them online after reading a bunch of reviews.',
  'Long-time customer here.',
  'We own a couple of rentals in {area} and use them for all of them.',
];

/** Appended to a service opener: "Our AC quit, so we called Riverbend." */
export const CALLOUTS: readonly string[] = [
  ', so we called {company}.',
  ', so I called {company}.',
  ', and a friend told us to call {company}.',
  ', so we booked {company} online.',
];

/** Sentences whose job is to name the technician. */
export const TECH_INTROS: readonly string[] = [
  'They sent {T}.',
  '{T} came out to take a look.',
  'Our technician was {T}.',
  '{T} was the one who came out.',
  'They sent {T} out that afternoon.',
];

export const PRAISE_CLOSERS: readonly string[] = [
  'Highly recommend!',
  'Highly recommend {company}.',
  "We'll definitely use them again.",
  "We'll be calling them for everything from now on.",
  'Five stars, well deserved.',
  "Can't recommend them enough.",
  'Already told my neighbors about them.',
  '{company} has a customer for life.',
  'Much better than the last company we used.',
  'Best {trade} in {area}, hands down.',
  'Thank you {company}!',
  'So glad we found them.',
  'Way better experience than the big national chains.',
];

export const LUKEWARM_CLOSERS: readonly string[] = [
  'Overall a decent experience.',
  'Would probably use them again.',
  'Good, not great.',
  'Solid company, just a few rough edges.',
  "Overall I'm satisfied.",
  "We'll see how it holds up.",
  "Not bad, but I've had better.",
  'Might use them again, might not.',
];

export const COMPLAINT_CLOSERS: readonly string[] = [
  'Would not recommend.',
  'Never again.',
  'Save yourself the trouble and call someone else.',
  'Very disappointed.',
  'Avoid.',
  "Worse than the last company we used, and that's saying something.",
  "I'll be taking my business elsewhere.",
  'Buyer beware.',
  'Not the experience I expected from a company with so many good reviews.',
];

/** Few-word praise, joined into one-line five-star reviews: "Fast, friendly and fair." */
export const SHORT_PRAISE: Partial<Record<Aspect, readonly string[]>> = {
  punctuality: ['on time', 'punctual', 'prompt'],
  price: ['fair price', 'fairly priced', 'reasonable price'],
  professionalism: ['friendly', 'professional', 'courteous'],
  cleanliness: ['clean', 'tidy'],
  speed: ['fast', 'quick'],
  quality: ['great work', 'quality work', 'excellent work'],
  expertise: ['knowledgeable'],
  honesty: ['honest'],
};

export const SHORT_REVIEWS: readonly string[] = [
  'Great service from start to finish!',
  '{T} was awesome.',
  'Excellent service.',
  'Could not be happier.',
  'Great experience all around.',
  '{T} did a great job.',
  'Super happy with the service.',
];

/** Joiners for two clauses of opposite polarity; `{a}`/`{b}` are clauses, `{A}` a capitalised one. */
export const CONTRAST_JOINS: readonly string[] = [
  '{A}, but {b}.',
  '{A} but {b}.',
  '{A}. However, {b}.',
  '{A}, though {b}.',
  'While {a}, {b}.',
  '{A}. That said, {b}.',
];

/** Opposite polarity where the second clause is the bad news / the good news. */
export const BAD_NEWS_JOINS: readonly string[] = ['{A}. Unfortunately, {b}.', '{A}, but sadly {b}.'];
export const GOOD_NEWS_JOINS: readonly string[] = ['{A}. On the bright side, {b}.', '{A}. To be fair, {b}.'];

export const PRAISE_JOINS: readonly string[] = ['{A} and {b}.', '{A}, and {b}.', '{A}. Also, {b}.', '{A}, plus {b}.', '{A}! And {b}.'];
export const COMPLAINT_JOINS: readonly string[] = [
  '{A}, and {b}.',
  '{A}. To make matters worse, {b}.',
  '{A}, and on top of that {b}.',
  '{A}. And {b}.',
];

export const INTENSIFIERS = ['very', 'extremely', 'really', 'super', 'incredibly', 'so'];
export const NEGATIVE_INTENSIFIERS = ['really', 'extremely', 'incredibly', 'absolutely'];
