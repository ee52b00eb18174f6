/**
 * Owner replies. Slots: {name} (the reviewer's first name, or "there"), {tech} (the technician's
 * first name, or "our team"), {unit}, {issue} (what went wrong, from the review's worst aspect),
 * {phone}, {owner}.
 */
import type { Aspect } from './aspects.ts';

export const THANKS_OPENINGS: readonly string[] = [
  'Thank you, {name}!',
  'Thanks so much for the kind words, {name}!',
  '{name}, thank you for taking the time to leave a review.',
  'We appreciate you, {name}!',
  'Hi {name}, thanks for the great review.',
];

export const THANKS_BODIES: readonly string[] = [
  "We'll make sure {tech} sees this.",
  '{tech} will be glad to hear it.',
  "We're glad we could help with your {unit}.",
  'It was a pleasure working with you.',
  "We're happy everything went smoothly.",
  'Reviews like this make our whole team proud.',
];

export const FOUR_STAR_NOTES: readonly string[] = [
  "If there's anything that would have made it five stars, give us a call; we want to hear it.",
  "We're always working to get better, and your feedback helps.",
];

export const THANKS_CLOSINGS: readonly string[] = [
  'See you next time!',
  "We're here whenever you need us.",
  'Thanks for choosing Riverbend.',
  '',
];

export const APOLOGY_OPENINGS: readonly string[] = [
  "{name}, we're sorry to hear this.",
  'Hi {name}, thank you for the honest feedback.',
  '{name}, this is not the experience we want anyone to have.',
  '{name}, I appreciate you letting us know.',
];

export const APOLOGY_BODIES: readonly string[] = [
  "We're sorry about {issue}.",
  "{Issue} isn't acceptable, and I've addressed it with our team.",
  "I apologize for {issue}; that's not how we do things.",
];

export const APOLOGY_ACTIONS: readonly string[] = [
  'Please call me directly at {phone} so we can make it right.',
  "I've asked our service manager to reach out to you today.",
  "We'd like the chance to come back out at no charge.",
  'Please reach out so we can talk it through.',
];

/** Offered when the complaint was about money. */
export const INVOICE_ACTIONS: readonly string[] = [
  "I'd like to review your invoice with you personally; please call the office at {phone}.",
  "Please send us your invoice number and I'll go over every line with you.",
];

export const LUKEWARM_OPENINGS: readonly string[] = [
  'Hi {name}, thank you for the honest feedback.',
  '{name}, I appreciate you letting us know.',
  'Thanks for the review, {name}.',
];

export const LUKEWARM_BODIES: readonly string[] = [
  "We're sorry about {issue}.",
  "Thanks for pointing out {issue}; we're working on it.",
  "You're right to mention {issue}, and I've passed it along to the team.",
];

export const LUKEWARM_ACTIONS: readonly string[] = [
  "We'd like to make sure your {unit} is working the way it should, so call us anytime.",
  "I've shared your comments with the team.",
  'Thanks for giving us the chance, and we hope to earn that fifth star next time.',
];

export const NO_RECORD_REPLIES: readonly string[] = [
  "We can't find a record of a job under this name. Please call us at {phone} so we can look into it.",
  "We have no record of this visit, but we take every review seriously. Please contact our office at {phone}.",
];

export const SIGNATURES: readonly string[] = ['- {owner}, owner', '- The Riverbend team', '- {owner}', ''];

export const OWNER_FIRST_NAME = 'Dave';

export const ISSUES: Record<Aspect, readonly string[]> = {
  punctuality: ['the wait for our technician', 'the trouble with your appointment time'],
  professionalism: ['how you were treated', "our technician's attitude"],
  communication: ['the lack of communication', 'not getting a call back'],
  quality: ['the problems with the work', 'having to call us back out'],
  price: ['the price being higher than you expected', 'the confusion over the bill'],
  cleanliness: ['the mess that was left behind'],
  speed: ['how long the job took'],
  expertise: ['the trouble getting the problem diagnosed', 'how long it took to find the cause'],
  scheduling: ['the scheduling trouble', 'the rescheduling'],
  honesty: ['feeling pressured on this job', 'the concerns you raised about our recommendations'],
};
