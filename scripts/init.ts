/**
 * `npm run init`: creates the content folder (CONTENT_DIR, default content/) for a new business.
 *
 *   npm run init -- --name "Acme Plumbing" --website https://acme.example --telephone +1-555-0100 \
 *     --street "1 Main St" --city Springfield --region IL --postal-code 62701 --country US \
 *     --service "Drain Cleaning=drain,clogged drain" --service "water-heater:Water Heaters" \
 *     --technician "Dana Smith=Dana" --area Springfield --locale es
 *
 * A value not given as a flag is asked for on a terminal (and is a problem elsewhere); on a terminal an
 * invalid answer is explained and asked again, the valid ones kept. Everything is
 * checked first, with the build's own rules, one line per problem; nothing is written unless all is
 * valid. It writes business.json, an empty reviews/ folder, the default aspect set (aspects.json) and
 * the editor's insights files, then prints the next steps. An existing folder is left alone unless
 * --force is given, and even then only business.json is replaced: reviews and edited files are kept.
 */
import { copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_ASPECTS_FILE } from '../core/content/load-content.ts';
import { parseContent } from '../core/content/parse-content.ts';
import { formatContentProblem } from '../core/content/problems.ts';
import { DEFAULT_LOCALE, LOCALES } from '../core/i18n/locales.ts';
import { slugify } from '../core/text/text-rules.ts';
import { DEMO_CONTENT_DIR, isDemoContent, readEntryConfig } from './lib/entry-config.ts';

const USAGE = `usage: npm run init -- --name NAME --website URL --telephone PHONE --street STREET --city CITY
         --region REGION --postal-code CODE --country CC --service "[id:]Name[=alias,alias]" ...
         [--technician "Name[=alias,alias]" ...] [--area AREA ...] [--locale ${LOCALES.join('|')}] [--force] [--help]
Creates CONTENT_DIR (default content/) for your business. --locale is the site's language (${DEFAULT_LOCALE} when not
given). On a terminal, what is missing is asked for, and an invalid answer is asked again (the others are kept).`;

const TEXT_FLAGS = {
  name: 'Business name',
  website: 'Website (https://...)',
  telephone: 'Telephone',
  street: 'Street address',
  city: 'City',
  region: 'Region or state',
  'postal-code': 'Postal code',
  country: 'Country (two letters, e.g. US)',
} as const;
type TextFlag = keyof typeof TEXT_FLAGS;

const LIST_FLAGS = {
  service: 'A service, as [id:]Name[=alias,alias] (empty line when done)',
  technician: 'A technician, as Name[=alias,alias] (empty line when done)',
  area: 'A service area, e.g. a town (empty line when done)',
} as const;
type ListFlag = keyof typeof LIST_FLAGS;

/** The site's language (business.json `locale`): asked too, but an empty answer is the default. */
const LOCALE_QUESTION = `The site's language, ${LOCALES.join(' or ')} (empty line for ${DEFAULT_LOCALE})`;

export type InitAnswers = Partial<Record<TextFlag, string>> & Partial<Record<ListFlag, string[]>> & { locale?: string };

/** Where a business.json field came from, to name the flag in a problem. */
const FLAG_OF_FIELD: Record<string, string> = {
  name: '--name',
  url: '--website',
  telephone: '--telephone',
  'address.street': '--street',
  'address.locality': '--city',
  'address.region': '--region',
  'address.postal_code': '--postal-code',
  'address.country': '--country',
  services: '--service',
  technicians: '--technician',
  service_areas: '--area',
  locale: '--locale',
};

/** business.json from the answers, or one line per problem (each naming its flag). */
export function composeBusiness(answers: InitAnswers): { ok: true; business: object } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  for (const flag of Object.keys(TEXT_FLAGS) as TextFlag[]) if (!answers[flag]?.trim()) problems.push(`--${flag}: is required`);
  if ((answers.service ?? []).length === 0) problems.push('--service: give at least one service, e.g. --service "Drain Cleaning=drain,clogged drain"');
  const website = answers.website?.trim() ?? '';
  if (website && !/^https?:\/\/[^/\s]+/.test(website)) problems.push(`--website: "${website}" must be an http(s) URL, e.g. https://www.example.com`);
  const country = answers.country?.trim() ?? '';
  if (country && !isCountryCode(country.toUpperCase())) problems.push(`--country: "${country}" must be a two-letter ISO 3166-1 country code, e.g. US, CA, GB, DE${country.toUpperCase() === 'UK' ? ' (the United Kingdom is GB)' : ''}`);

  const text = (flag: TextFlag) => answers[flag]?.trim() ?? '';
  const locale = answers.locale?.trim().toLowerCase() || DEFAULT_LOCALE;
  const business = {
    name: text('name'),
    url: text('website'),
    telephone: text('telephone'),
    address: { street: text('street'), locality: text('city'), region: text('region'), postal_code: text('postal-code'), country: text('country').toUpperCase() },
    services: (answers.service ?? []).map(readService),
    technicians: (answers.technician ?? []).map((value) => readNamed(value)),
    service_areas: (answers.area ?? []).map((a) => a.trim()),
    // A business.json without `locale` is English (core/i18n/locales.ts): it names only another language.
    ...(locale === DEFAULT_LOCALE ? {} : { locale }),
  };
  const parsed = parseContent({ business: { file: 'business.json', data: business }, reviewFiles: [] });
  // The build's rules, for what the checks above did not already name.
  const named = new Set(problems.map((p) => p.split(':')[0]));
  if (!parsed.ok) problems.push(...parsed.problems.map(describeProblem).filter((line) => !named.has(line.split(':')[0]!.split(' ')[0])));
  return problems.length === 0 ? { ok: true, business } : { ok: false, problems };
}

const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region' });
/** Codes Intl names that are not countries of ISO 3166-1 (reserved or "unknown"). */
const NOT_COUNTRIES = new Set(['ZZ', 'EU', 'EZ', 'UN', 'QO', 'UK']);

/** An assigned ISO 3166-1 alpha-2 code: Intl knows its name (a free code such as QQ is named by itself). */
function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && !NOT_COUNTRIES.has(code) && REGION_NAMES.of(code) !== code;
}

/** `[id:]Name[=alias,alias]`; the id defaults to the name as a slug. */
function readService(value: string) {
  const colon = value.indexOf(':');
  const eq = value.indexOf('=');
  const hasId = colon > 0 && (eq === -1 || colon < eq);
  const named = readNamed(hasId ? value.slice(colon + 1) : value);
  return { id: hasId ? value.slice(0, colon).trim() : slugify(named.name), ...named };
}

function readNamed(value: string): { name: string; aliases: string[] } {
  const [name = '', aliases = ''] = value.split('=', 2);
  return { name: name.trim(), aliases: aliases.split(',').map((a) => a.trim()).filter(Boolean) };
}


function describeProblem(problem: Parameters<typeof formatContentProblem>[0]): string {
  const field = problem.field ?? '';
  const flag = FLAG_OF_FIELD[field] ?? FLAG_OF_FIELD[field.split('.')[0]!];
  if (!flag) return formatContentProblem(problem);
  const index = /^\w+\.(\d+)/.exec(field)?.[1];
  const rest = field.split('.').slice(2).join('.');
  return `${flag}${index === undefined ? '' : ` #${Number(index) + 1}`}${rest ? ` (${rest})` : ''}: ${problem.message}`;
}

export type InitResult = { ok: true; written: string[]; kept: string[] } | { ok: false; problems: string[] };

/** Writes the folder; an existing, non-empty folder only with `force`, and then business.json alone is replaced. */
export async function writeContentFolder(dir: string, business: object, force: boolean): Promise<InitResult> {
  if (isDemoContent(dir)) return { ok: false, problems: [`CONTENT_DIR is the demo (${DEMO_CONTENT_DIR}): choose a folder of your own, e.g. content`] };
  const existing = (await readdir(dir).catch(() => [] as string[])).sort();
  if (existing.length > 0 && !force) {
    return { ok: false, problems: [`${dir} already exists (${existing.slice(0, 4).join(', ')}${existing.length > 4 ? ', ...' : ''}): nothing written; pass --force to replace its business.json (reviews and other files are kept)`] };
  }
  const written: string[] = [];
  const kept: string[] = [];
  const writeIfMissing = async (name: string, write: (file: string) => Promise<void>) => {
    const file = path.join(dir, name);
    if (existing.length > 0 && (await exists(file))) return void kept.push(name);
    await write(file);
    written.push(name);
  };
  await mkdir(path.join(dir, 'reviews'), { recursive: true });
  await mkdir(path.join(dir, 'insights'), { recursive: true });
  await writeFile(path.join(dir, 'business.json'), `${JSON.stringify(business, null, 2)}\n`);
  written.push('business.json');
  // Git keeps no empty folder: the marker keeps reviews/ in a commit of the new folder.
  await writeIfMissing('reviews/.gitkeep', (file) => writeFile(file, ''));
  await writeIfMissing('aspects.json', (file) => copyFile(DEFAULT_ASPECTS_FILE, file));
  for (const name of ['insights/faq.json', 'insights/summary.json']) {
    await writeIfMissing(name, (file) => copyFile(path.join(DEMO_CONTENT_DIR, name), file));
  }
  return { ok: true, written, kept };
}

async function exists(file: string): Promise<boolean> {
  return (await readdir(path.dirname(file)).catch(() => [] as string[])).includes(path.basename(file));
}

/**
 * Asks on the terminal for what the flags left out; then, while an answer is invalid, says why and asks
 * that one again, keeping every valid answer. Gives up (and lets the problems be reported) only when a
 * problem names no question.
 */
async function askOnTerminal(answers: InitAnswers): Promise<InitAnswers> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    let filled = await askForMissing(rl, answers);
    for (;;) {
      const composed = composeBusiness(filled);
      if (composed.ok) return filled;
      const flags = new Set(composed.problems.map((p) => /^--([a-z-]+)/.exec(p)?.[1]));
      if ([...flags].some((flag) => flag === undefined || !(flag in TEXT_FLAGS || flag in LIST_FLAGS || flag === 'locale'))) return filled;
      for (const problem of composed.problems) console.log(problem);
      filled = { ...filled };
      for (const flag of flags) delete filled[flag as keyof InitAnswers];
      filled = await askForMissing(rl, filled);
    }
  } finally {
    rl.close();
  }
}

/** Asks for each answer still missing, one question at a time. */
async function askForMissing(rl: ReturnType<typeof createInterface>, answers: InitAnswers): Promise<InitAnswers> {
  const filled: InitAnswers = { ...answers };
  for (const [flag, question] of Object.entries(TEXT_FLAGS) as [TextFlag, string][]) {
    while (!filled[flag]?.trim()) filled[flag] = (await rl.question(`${question}: `)).trim();
  }
  for (const [flag, question] of Object.entries(LIST_FLAGS) as [ListFlag, string][]) {
    // An empty list answered already (no technicians) is an answer; services need one.
    const given = filled[flag];
    if (given !== undefined && (given.length > 0 || flag !== 'service')) continue;
    const values: string[] = [];
    for (;;) {
      const value = (await rl.question(`${question}: `)).trim();
      if (value === '') {
        if (flag === 'service' && values.length === 0) continue;
        break;
      }
      values.push(value);
    }
    filled[flag] = values;
  }
  filled.locale ??= (await rl.question(`${LOCALE_QUESTION}: `)).trim();
  return filled;
}

function readFlags(argv: string[]): { answers: InitAnswers; force: boolean; help: boolean } | { error: string } {
  try {
    const { values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        ...Object.fromEntries(Object.keys(TEXT_FLAGS).map((flag) => [flag, { type: 'string' as const }])),
        ...Object.fromEntries(Object.keys(LIST_FLAGS).map((flag) => [flag, { type: 'string' as const, multiple: true as const }])),
        locale: { type: 'string' as const },
        force: { type: 'boolean' as const, default: false },
        help: { type: 'boolean' as const, short: 'h', default: false },
      },
    });
    const { force, help, ...answers } = values as InitAnswers & { force: boolean; help: boolean };
    return { answers, force, help };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

function printNextSteps(dir: string, name: string): void {
  const inside = path.relative(process.cwd(), dir);
  const shown = inside && !inside.startsWith('..') ? inside : dir;
  console.log(`
Next steps:
  1. Import your reviews:    npm run import -- google takeout.json   (or csv, json: see docs/import.md)
  2. Start the service:      npm start   (serves ${name} from ${shown}/; settings in .env, see .env.example)
  3. Publish on every commit: npm run hooks:install, then git add ${shown} && git commit
  4. Deploy:                 docs/deploy.md`);
}

if (import.meta.main) {
  const flags = readFlags(process.argv.slice(2));
  if ('error' in flags) {
    console.error(`${flags.error}\n${USAGE}`);
    process.exit(2);
  }
  if (flags.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const dir = path.resolve(readEntryConfig().config.contentDir);
  const answers = process.stdin.isTTY ? await askOnTerminal(flags.answers) : flags.answers;
  const composed = composeBusiness(answers);
  if (!composed.ok) {
    for (const problem of composed.problems) console.error(problem);
    console.error(`Nothing written. ${USAGE.split('\n')[0]} ...`);
    process.exit(1);
  }
  const result = await writeContentFolder(dir, composed.business, flags.force);
  if (!result.ok) {
    for (const problem of result.problems) console.error(problem);
    process.exit(1);
  }
  console.log(`Created ${dir} for ${answers.name}: ${result.written.join(', ')}.`);
  if (result.kept.length > 0) console.log(`Kept as they were: ${result.kept.join(', ')}.`);
  printNextSteps(dir, answers.name!);
}
