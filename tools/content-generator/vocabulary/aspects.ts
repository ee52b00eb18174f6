/**
 * The aspects reviews talk about. The keys follow the default aspect set of the insights work
 * (issue 5), so the words used for each one here are the words its lexicon should recognise.
 */
export const ASPECTS = [
  'punctuality',
  'professionalism',
  'communication',
  'quality',
  'price',
  'cleanliness',
  'speed',
  'expertise',
  'scheduling',
  'honesty',
] as const;

export type Aspect = (typeof ASPECTS)[number];

/** A clause is lower-case, without final punctuation; `{slot}`s are filled per review (template.ts). */
export type ClauseBank = Record<Aspect, readonly string[]>;

/** How often each aspect comes up when customers praise / complain. */
export const PRAISE_WEIGHTS: Record<Aspect, number> = {
  punctuality: 1.1,
  professionalism: 1.3,
  communication: 0.9,
  quality: 1.3,
  price: 1,
  cleanliness: 0.7,
  speed: 0.8,
  expertise: 1,
  scheduling: 0.6,
  honesty: 0.8,
};

export const COMPLAINT_WEIGHTS: Record<Aspect, number> = {
  punctuality: 1.1,
  professionalism: 0.7,
  communication: 1.2,
  quality: 1.3,
  price: 1.4,
  cleanliness: 0.6,
  speed: 0.6,
  expertise: 0.5,
  scheduling: 1,
  honesty: 0.8,
};

/** Adjectives for "{T} was friendly, knowledgeable and quick." lists. */
export const PRAISE_ADJECTIVES: Partial<Record<Aspect, readonly string[]>> = {
  professionalism: ['professional', 'courteous', 'polite', 'friendly', 'respectful'],
  expertise: ['knowledgeable', 'skilled', 'sharp'],
  punctuality: ['punctual', 'prompt'],
  speed: ['efficient', 'quick'],
  honesty: ['honest', 'trustworthy', 'upfront'],
  cleanliness: ['tidy', 'neat'],
  communication: ['easy to talk to', 'great at explaining things'],
  quality: ['thorough', 'meticulous'],
};

export const COMPLAINT_ADJECTIVES: Partial<Record<Aspect, readonly string[]>> = {
  professionalism: ['rude', 'unprofessional', 'dismissive'],
  expertise: ['clueless', 'inexperienced'],
  communication: ['impossible to reach', 'vague about everything'],
  speed: ['slow'],
  cleanliness: ['messy'],
  quality: ['sloppy', 'careless'],
  honesty: ['pushy'],
};
