/**
 * The demo business: what business.json publishes, plus what only the generator needs to write
 * believable reviews about it (who works on what, when they were on staff, what a job costs).
 * Aliases are matched as whole words in review text by the loader, so none of them is a common
 * English word ("Will", "heat", "leak") that would turn unrelated sentences into mentions.
 */
import type { BusinessContent } from '../../core/schemas/content.ts';

export type Category = 'hvac' | 'plumbing' | 'electrical';
export type Season = 'cooling' | 'heating' | 'shoulder' | 'steady' | 'growing';

export const BUSINESS: BusinessContent = {
  name: 'Riverbend Home Services',
  url: 'https://www.riverbendhomeservices.example',
  telephone: '+1-865-555-0142',
  address: {
    street: '4120 Kingston Pike, Suite 200',
    locality: 'Knoxville',
    region: 'TN',
    postal_code: '37919',
    country: 'US',
  },
  services: [
    { id: 'ac-repair', name: 'AC Repair', aliases: ['AC', 'A/C', 'air conditioning', 'air conditioner', 'air conditioning repair'] },
    { id: 'ac-installation', name: 'AC Installation', aliases: ['new AC', 'AC install', 'AC replacement', 'new air conditioner', 'central air'] },
    { id: 'furnace-repair', name: 'Furnace Repair', aliases: ['furnace', 'gas furnace', 'heating repair', 'furnace repair'] },
    { id: 'heat-pump', name: 'Heat Pump Service', aliases: ['heat pump', 'heat pumps', 'mini split', 'mini-split', 'ductless'] },
    { id: 'hvac-maintenance', name: 'HVAC Tune-Up', aliases: ['tune-up', 'tune up', 'maintenance plan', 'HVAC maintenance', 'seasonal check'] },
    { id: 'water-heater', name: 'Water Heater Repair & Installation', aliases: ['water heater', 'hot water heater', 'tankless', 'tankless water heater', 'hot water tank'] },
    { id: 'drain-cleaning', name: 'Drain Cleaning', aliases: ['drain', 'drains', 'clogged drain', 'clog', 'hydro jetting', 'hydro-jetting'] },
    { id: 'plumbing-repair', name: 'Plumbing Repair', aliases: ['plumbing', 'burst pipe', 'leaky faucet', 'toilet', 'pipes'] },
    { id: 'sewer-line', name: 'Sewer Line Repair', aliases: ['sewer', 'sewer line', 'main line', 'camera inspection'] },
    { id: 'electrical-repair', name: 'Electrical Repair', aliases: ['electrical work', 'wiring', 'outlet', 'outlets', 'light switch'] },
    { id: 'panel-upgrade', name: 'Electrical Panel Upgrade', aliases: ['panel upgrade', 'breaker panel', 'electrical panel', '200 amp service'] },
    { id: 'ev-charger', name: 'EV Charger Installation', aliases: ['EV charger', 'car charger', 'level 2 charger', 'Tesla charger'] },
    { id: 'duct-cleaning', name: 'Duct Cleaning', aliases: ['air ducts', 'ductwork', 'ducts', 'dryer vent'] },
  ],
  technicians: [
    { name: 'Michael Reyes', aliases: ['Mike', 'Michael', 'Mike Reyes'] },
    { name: 'Darnell Washington', aliases: ['Darnell', 'Mr. Washington', 'DW'] },
    { name: 'Sarah Kowalski', aliases: ['Sarah', 'Sarah K'] },
    { name: 'Tomas Herrera', aliases: ['Tomas', 'Tommy'] },
    { name: 'Priya Natarajan', aliases: ['Priya', 'Ms. Natarajan'] },
    { name: 'Jacob Lindqvist', aliases: ['Jake', 'Jacob', 'Jake L'] },
    { name: 'Luis Ortega', aliases: ['Luis', 'Lou'] },
    { name: 'Kevin Brennan', aliases: ['Kevin', 'Kev'] },
    { name: 'Monica Alvarez', aliases: ['Monica', 'Ms. Alvarez'] },
  ],
  service_areas: ['Knoxville', 'Farragut', 'Maryville', 'Oak Ridge', 'Powell', 'Alcoa', 'Lenoir City', 'Seymour'],
};

/** How reviews refer to the company itself. */
export const COMPANY_NAMES = ['Riverbend', 'Riverbend Home Services', 'Riverbend'];

/** Office telephone as customers and the owner write it. */
export const OFFICE_PHONE = '(865) 555-0142';

export type TechnicianProfile = {
  name: string;
  pronoun: 'he' | 'she';
  categories: readonly Category[];
  /** How often this person shows up in reviews at all. */
  weight: number;
  /** Multiplier on the chance of being the technician of a 1- or 2-star review. */
  lowRatingBias: number;
  /** The aspect customers praise most often / complain about most often. */
  strength?: string;
  weakness?: string;
  /** On staff from / until (YYYY-MM), inclusive. */
  from?: string;
  until?: string;
};

export const TECHNICIANS: readonly TechnicianProfile[] = [
  { name: 'Michael Reyes', pronoun: 'he', categories: ['hvac'], weight: 1.4, lowRatingBias: 0.7, strength: 'expertise' },
  { name: 'Darnell Washington', pronoun: 'he', categories: ['plumbing'], weight: 1.3, lowRatingBias: 0.6, strength: 'honesty' },
  { name: 'Sarah Kowalski', pronoun: 'she', categories: ['hvac'], weight: 1.1, lowRatingBias: 0.5, strength: 'communication' },
  { name: 'Tomas Herrera', pronoun: 'he', categories: ['plumbing'], weight: 1.3, lowRatingBias: 1.3, strength: 'speed', weakness: 'communication', until: '2025-09' },
  { name: 'Priya Natarajan', pronoun: 'she', categories: ['electrical'], weight: 1.2, lowRatingBias: 0.6, strength: 'quality' },
  { name: 'Jacob Lindqvist', pronoun: 'he', categories: ['hvac'], weight: 1, lowRatingBias: 1.4, weakness: 'cleanliness' },
  { name: 'Luis Ortega', pronoun: 'he', categories: ['plumbing'], weight: 1, lowRatingBias: 0.9, strength: 'expertise', from: '2023-09' },
  { name: 'Kevin Brennan', pronoun: 'he', categories: ['hvac', 'electrical'], weight: 0.9, lowRatingBias: 2, weakness: 'punctuality' },
  { name: 'Monica Alvarez', pronoun: 'she', categories: ['hvac'], weight: 1.1, lowRatingBias: 0.6, strength: 'cleanliness', from: '2024-05' },
];

export type ServiceProfile = {
  id: string;
  category: Category;
  /** Repairs fix something broken; installs put in something new; maintenance keeps things running. */
  kind: 'repair' | 'install' | 'maintenance';
  season: Season;
  weight: number;
  /** Bare noun for "your {unit}" in owner replies. */
  unit: string;
  /** Singular noun phrases for the equipment; each contains the service's name or an alias. */
  things: readonly string[];
  /** Noun phrases for the job itself. */
  jobs: readonly string[];
  /** What a dishonest tech would push instead of the job at hand. */
  upsell?: string;
  /** Typical bill in dollars: [low, high, rounding step]. */
  price: readonly [number, number, number];
};

export const SERVICES: readonly ServiceProfile[] = [
  {
    id: 'ac-repair', category: 'hvac', kind: 'repair', season: 'cooling', weight: 14, unit: 'AC',
    things: ['our AC', 'the A/C', 'our air conditioner', 'the air conditioning', 'the AC'],
    jobs: ['the repair', 'the AC repair', 'the service call'], upsell: 'a brand new air conditioning system', price: [140, 950, 5],
  },
  {
    id: 'ac-installation', category: 'hvac', kind: 'install', season: 'cooling', weight: 6, unit: 'new AC',
    things: ['our new AC', 'the new air conditioner', 'the central air'],
    jobs: ['the install', 'the AC install', 'the AC replacement'], price: [5400, 11800, 50],
  },
  {
    id: 'furnace-repair', category: 'hvac', kind: 'repair', season: 'heating', weight: 10, unit: 'furnace',
    things: ['our furnace', 'the furnace', 'our gas furnace'],
    jobs: ['the repair', 'the furnace repair', 'the service call'], upsell: 'a brand new furnace', price: [140, 850, 5],
  },
  {
    id: 'heat-pump', category: 'hvac', kind: 'repair', season: 'heating', weight: 7, unit: 'heat pump',
    things: ['our heat pump', 'the heat pump', 'the mini split', 'our ductless unit'],
    jobs: ['the repair', 'the heat pump repair', 'the job'], upsell: 'a new heat pump', price: [180, 1400, 10],
  },
  {
    id: 'hvac-maintenance', category: 'hvac', kind: 'maintenance', season: 'shoulder', weight: 9, unit: 'system',
    things: ['our system', 'the HVAC system', 'our whole system'],
    jobs: ['the tune-up', 'our tune-up', 'the seasonal check'], upsell: 'a new system', price: [89, 189, 10],
  },
  {
    id: 'water-heater', category: 'plumbing', kind: 'repair', season: 'steady', weight: 9, unit: 'water heater',
    things: ['our water heater', 'the hot water heater', 'the tankless water heater'],
    jobs: ['the water heater repair', 'the repair', 'the job'], upsell: 'a new tankless water heater', price: [220, 3900, 10],
  },
  {
    id: 'drain-cleaning', category: 'plumbing', kind: 'repair', season: 'steady', weight: 9, unit: 'drain',
    things: ['the kitchen drain', 'the shower drain', 'the bathroom sink drain'],
    jobs: ['the drain cleaning', 'the job', 'the service call'], upsell: 'a hydro jetting package', price: [145, 480, 5],
  },
  {
    id: 'plumbing-repair', category: 'plumbing', kind: 'repair', season: 'steady', weight: 10, unit: 'plumbing',
    things: ['the upstairs toilet', 'the toilet', 'the leaky faucet', 'our plumbing'],
    jobs: ['the repair', 'the plumbing repair', 'the job'], upsell: 'a whole-house repipe', price: [150, 750, 5],
  },
  {
    id: 'sewer-line', category: 'plumbing', kind: 'repair', season: 'steady', weight: 3, unit: 'sewer line',
    things: ['our sewer line', 'the main line', 'the sewer'],
    jobs: ['the sewer line repair', 'the job', 'the camera inspection'], upsell: 'a full sewer line replacement', price: [900, 8500, 50],
  },
  {
    id: 'electrical-repair', category: 'electrical', kind: 'repair', season: 'steady', weight: 8, unit: 'wiring',
    things: ['the wiring', 'the outlet in the kitchen', 'the light switch', 'the bathroom outlet'],
    jobs: ['the repair', 'the electrical work', 'the job'], upsell: 'a whole-house rewire', price: [150, 680, 5],
  },
  {
    id: 'panel-upgrade', category: 'electrical', kind: 'install', season: 'steady', weight: 3, unit: 'panel',
    things: ['the new breaker panel', 'our electrical panel', 'the new panel'],
    jobs: ['the panel upgrade', 'the job', 'the install'], price: [2200, 4400, 50],
  },
  {
    id: 'ev-charger', category: 'electrical', kind: 'install', season: 'growing', weight: 3, unit: 'charger',
    things: ['the EV charger', 'our new level 2 charger', 'the car charger'],
    jobs: ['the install', 'the EV charger install', 'the job'], price: [850, 2100, 25],
  },
  {
    id: 'duct-cleaning', category: 'hvac', kind: 'maintenance', season: 'steady', weight: 3, unit: 'ductwork',
    things: ['the ductwork', 'the dryer vent', 'our ductwork'],
    jobs: ['the duct cleaning', 'the job', 'the cleaning'], upsell: 'a UV light system', price: [320, 720, 10],
  },
];

/** What customers call the person who came out, by trade. */
export const WORKER_NOUNS: Record<Category, readonly string[]> = {
  hvac: ['the tech', 'the technician', 'our technician', 'the HVAC tech', 'the tech they sent'],
  plumbing: ['the plumber', 'the plumber', 'the tech', 'our plumber', 'the plumber they sent'],
  electrical: ['the electrician', 'the electrician', 'the tech', 'our electrician'],
};

/** "Best {X} in Maryville" */
export const TRADE_NOUNS: Record<Category, readonly string[]> = {
  hvac: ['HVAC company', 'heating and air company', 'HVAC outfit'],
  plumbing: ['plumber'],
  electrical: ['electrician', 'electrical contractor'],
};
