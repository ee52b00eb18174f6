/**
 * Review titles, by how the review went and what it was mostly about. A title names only aspects the
 * review itself praises (or complains about), so it never contradicts the text under it.
 */
import type { Aspect } from './aspects.ts';

export const PRAISE_TITLES: readonly string[] = [
  'Great service',
  'Highly recommend',
  'Fantastic experience',
  'Above and beyond',
  'Five stars',
  'Top notch',
  'So glad we called them',
  'Lifesavers!',
  'Great company',
  'Will use again',
];

export const ASPECT_PRAISE_TITLES: Record<Aspect, readonly string[]> = {
  punctuality: ['Right on time', 'Showed up when they said they would'],
  professionalism: ['Friendly and professional', 'Courteous crew'],
  communication: ['Great communication', 'Explained everything'],
  quality: ['Quality work', 'Fixed right the first time'],
  price: ['Fair price', 'Great value'],
  cleanliness: ['Clean and careful', 'Left it spotless'],
  speed: ['Quick turnaround', 'Fast and efficient'],
  expertise: ['Knew exactly what to do', 'Real experts'],
  scheduling: ['Same-day service', 'Easy to schedule'],
  honesty: ['Honest and trustworthy', 'No upselling'],
};

/** Mixed titles that name no aspect, for any mixed review. */
export const MIXED_TITLES: readonly string[] = ['Mostly good', 'Okay experience', 'Decent but not perfect', 'Mixed feelings'];

/** Mixed titles that name what went well and what did not: only over a review that says both. */
export const ASPECT_MIXED_TITLES: readonly { title: string; praise: readonly Aspect[]; complaint: readonly Aspect[] }[] = [
  { title: 'Good work, a few hiccups', praise: ['quality'], complaint: ['punctuality', 'communication', 'scheduling', 'cleanliness', 'speed'] },
  { title: 'Good tech, frustrating office', praise: ['professionalism', 'expertise'], complaint: ['communication', 'scheduling'] },
  { title: 'Great work, pricey', praise: ['quality', 'expertise'], complaint: ['price'] },
];

export const ASPECT_COMPLAINT_TITLES: Record<Aspect, readonly string[]> = {
  punctuality: ['No-show, no call', 'Hours late'],
  professionalism: ['Rude and unprofessional', 'Rude technician'],
  communication: ['Terrible communication', 'Nobody calls back'],
  quality: ['Still broken', 'Poor workmanship'],
  price: ['Overpriced', "Bill didn't match the quote"],
  cleanliness: ['Left a mess', 'Messy crew'],
  speed: ['Took forever', 'Painfully slow'],
  expertise: ["Didn't know what they were doing", 'Inexperienced tech'],
  scheduling: ['Impossible to schedule', 'Canceled on us'],
  honesty: ['Tried to upsell us', 'Not trustworthy'],
};

export const COMPLAINT_TITLES: readonly string[] = [
  'Very disappointed',
  'Never again',
  'Avoid',
  'Not impressed',
  'Terrible experience',
];

/** "{Unit} back up and running" style titles, for repairs that went well. */
export const SERVICE_TITLES: readonly string[] = ['{Unit} fixed', 'Great {unit} service', '{Unit} back up and running'];
