/** Review titles, by how the review went and what it was mostly about. */
import type { Aspect } from './aspects.ts';

export const PRAISE_TITLES: readonly string[] = [
  'Great service',
  'Highly recommend',
  'Excellent work',
  'Fantastic experience',
  'Above and beyond',
  'Five stars',
  'Top notch',
  'So glad we called them',
  'Lifesavers!',
  'Great company',
  'Will use again',
  'Exactly what we needed',
];

export const ASPECT_PRAISE_TITLES: Record<Aspect, readonly string[]> = {
  punctuality: ['On time and professional', 'Showed up when they said they would'],
  professionalism: ['Friendly and professional', 'Courteous crew'],
  communication: ['Great communication', 'Explained everything'],
  quality: ['Quality work', 'Fixed right the first time'],
  price: ['Fair price, great work', 'Honest pricing'],
  cleanliness: ['Clean and careful', 'Left it spotless'],
  speed: ['Quick turnaround', 'Fast and efficient'],
  expertise: ['Knew exactly what to do', 'Real experts'],
  scheduling: ['Same-day service', 'Easy to schedule'],
  honesty: ['Honest and trustworthy', 'No upselling'],
};

export const MIXED_TITLES: readonly string[] = [
  'Good work, a few hiccups',
  'Mostly good',
  'Okay experience',
  'Decent but not perfect',
  'Good tech, frustrating office',
  'Mixed feelings',
  'Got the job done',
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
  'Not worth it',
  'Avoid',
  'Buyer beware',
  'Terrible experience',
];

/** "{unit} fixed fast" style titles, for repairs that went well. */
export const SERVICE_TITLES: readonly string[] = ['{Unit} fixed fast', 'Great {unit} service', '{Unit} back up and running'];
