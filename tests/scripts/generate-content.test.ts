import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusinessContentSchema, ReviewContentSchema } from '../../core/schemas/content.ts';
import type { BusinessContent, ReviewContent } from '../../core/schemas/content.ts';
import { detectLanguage } from '../../core/text/detect-language.ts';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = join(ROOT, 'tools/generate-content.ts');

function generate(...args: string[]) {
  return run(process.execPath, [SCRIPT, ...args], { cwd: ROOT });
}

/** Every file the generator owns, by path relative to the content folder, as raw text. */
async function readOwnedFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  files.set('business.json', await readFile(join(dir, 'business.json'), 'utf8'));
  for (const name of (await readdir(join(dir, 'reviews'))).filter((n) => n.endsWith('.json')).sort()) {
    files.set(`reviews/${name}`, await readFile(join(dir, 'reviews', name), 'utf8'));
  }
  return files;
}

type Loaded = { business: BusinessContent; reviews: ReviewContent[]; files: Map<string, string> };

async function load(dir: string): Promise<Loaded> {
  const files = await readOwnedFiles(dir);
  const business = BusinessContentSchema.parse(JSON.parse(files.get('business.json')!));
  const reviews: ReviewContent[] = [];
  for (const [path, raw] of files) {
    if (path.startsWith('reviews/')) reviews.push(...(JSON.parse(raw) as unknown[]).map((r) => ReviewContentSchema.parse(r)));
  }
  return { business, reviews, files };
}

/** Whole-word, case-insensitive, written independently of core/mentions.ts on purpose. */
function mentions(text: string, term: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

function countSentences(text: string): number {
  return text.split(/(?<!\b(?:Mr|Ms))[.!?]+(?:\s+|$)/).filter((s) => s.trim().length > 0).length;
}

let tmp: string;
let first: string;
let content: Loaded;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'generate-content-'));
  first = join(tmp, 'first');
  await generate('--out', first);
  content = await load(first);
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('generate-content', () => {
  it('writes byte-identical files when run twice with the same arguments', async () => {
    const second = join(tmp, 'second');
    await generate('--out', second);
    const again = await readOwnedFiles(second);
    expect([...again.keys()]).toEqual([...content.files.keys()]);
    for (const [path, raw] of content.files) expect(again.get(path), path).toBe(raw);
  });

  it('matches the committed examples/demo/ exactly (regenerate with npm run generate, never edit by hand)', async () => {
    const committed = await readOwnedFiles(join(ROOT, 'examples/demo'));
    expect([...committed.keys()]).toEqual([...content.files.keys()]);
    for (const [path, raw] of content.files) expect(committed.get(path), path).toBe(raw);
  });

  it("gives, in the owner's replies, the telephone of the review's own location (the business's for a review with none)", () => {
    const business = JSON.parse(content.files.get('business.json')!) as { telephone: string; locations: { id: string; telephone: string }[] };
    const written = (telephone: string) => telephone.replace(/^\+1-(\d{3})-(\d{3})-(\d{4})$/, '($1) $2-$3');
    const phones = new Map(business.locations.map((l) => [l.id, written(l.telephone)]));
    const seen = new Set<string>();
    for (const [path, raw] of content.files) {
      if (path === 'business.json') continue;
      for (const review of JSON.parse(raw) as ReviewContent[]) {
        const given = review.response?.text.match(/\(\d{3}\) \d{3}-\d{4}/g) ?? [];
        const expected = review.location === undefined ? written(business.telephone) : phones.get(review.location);
        for (const phone of given) expect(phone, review.id).toBe(expected);
        if (given.length > 0) seen.add(review.location ?? '');
      }
    }
    // Replies of both shops give a telephone.
    expect(seen.has('maryville') && seen.has('knoxville')).toBe(true);
  });

  it('writes one 2-space indented array per month, named after the month of its reviews', () => {
    for (const [path, raw] of content.files) {
      expect(raw, path).toBe(`${JSON.stringify(JSON.parse(raw), null, 2)}\n`);
      if (path === 'business.json') continue;
      const month = /^reviews\/(\d{4}-\d{2})\.json$/.exec(path)?.[1];
      expect(month, path).toBeDefined();
      const reviews = JSON.parse(raw) as ReviewContent[];
      expect(Array.isArray(reviews) && reviews.length > 0, path).toBe(true);
      for (const review of reviews) expect(review.date.slice(0, 7), review.id).toBe(month);
    }
  });

  it("keeps the loader's cross-file rules", () => {
    const { business, reviews } = content;
    const technicianTerms = new Map<string, string>();
    for (const t of business.technicians) {
      for (const term of [t.name, ...t.aliases]) {
        const owner = technicianTerms.get(term.toLowerCase());
        expect(owner === undefined || owner === t.name, `"${term}" names two technicians`).toBe(true);
        technicianTerms.set(term.toLowerCase(), t.name);
      }
    }
    const serviceTerms = new Map<string, string>();
    for (const s of business.services) {
      for (const term of [s.id, s.name, ...s.aliases]) {
        const owner = serviceTerms.get(term.toLowerCase());
        expect(owner === undefined || owner === s.id, `"${term}" names two services`).toBe(true);
        serviceTerms.set(term.toLowerCase(), s.id);
      }
    }
    const serviceIds = new Set(business.services.map((s) => s.id));
    const areas = new Set(business.service_areas);
    const ids = new Set<string>();
    for (const r of reviews) {
      expect(ids.has(r.id), `duplicate id ${r.id}`).toBe(false);
      ids.add(r.id);
      for (const name of r.technicians ?? []) expect(technicianTerms.has(name.toLowerCase()), `${r.id}: ${name}`).toBe(true);
      for (const id of r.services ?? []) expect(serviceIds.has(id), `${r.id}: ${id}`).toBe(true);
      if (r.service_area !== undefined) expect(areas.has(r.service_area), `${r.id}: ${r.service_area}`).toBe(true);
      if (r.response) expect(r.response.date >= r.date, `${r.id}: reply before review`).toBe(true);
      if (r.response) expect(r.response.date <= '2026-11-15', `${r.id}: reply after the end date`).toBe(true);
    }
  });

  it('describes a demo business with enough people, services, places and history', () => {
    const { business, reviews } = content;
    expect(business.technicians.length).toBeGreaterThanOrEqual(7);
    expect(business.technicians.every((t) => t.aliases.length > 0)).toBe(true);
    expect(business.services.length).toBeGreaterThanOrEqual(8);
    expect(business.services.every((s) => s.aliases.length > 0 && /^[a-z0-9-]+$/.test(s.id))).toBe(true);
    expect(business.service_areas.length).toBeGreaterThanOrEqual(6);

    const verified = reviews.filter((r) => r.verified);
    expect(verified.length).toBeGreaterThanOrEqual(400);
    expect(reviews.length - verified.length).toBeGreaterThanOrEqual(5);
    const dates = reviews.map((r) => r.date).sort();
    expect(dates.at(-1)! <= '2026-11-15').toBe(true);
    const years = (Date.parse(dates.at(-1)!) - Date.parse(dates[0]!)) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThanOrEqual(3.5);
    const perYear = (y: string) => reviews.filter((r) => r.date.startsWith(y)).length;
    expect(perYear('2024')).toBeLessThan(perYear('2025'));
  });

  it('has a realistic rating mix, owner replies mostly on the bad ones, and varied sources', () => {
    const verified = content.reviews.filter((r) => r.verified);
    const share = (f: (r: ReviewContent) => boolean, of = verified) => of.filter(f).length / of.length;
    expect(share((r) => r.rating === 5)).toBeGreaterThan(0.62);
    expect(share((r) => r.rating === 5)).toBeLessThan(0.74);
    for (const rating of [1, 2, 3, 4]) expect(share((r) => r.rating === rating), `rating ${rating}`).toBeGreaterThan(0.025);
    expect(share((r) => r.response !== undefined)).toBeGreaterThan(0.25);
    const low = verified.filter((r) => r.rating <= 2);
    const high = verified.filter((r) => r.rating === 5);
    expect(share((r) => r.response !== undefined, low)).toBeGreaterThan(2 * share((r) => r.response !== undefined, high));
    expect(share((r) => r.title !== undefined)).toBeGreaterThan(0.5);
    expect(share((r) => r.service_area !== undefined)).toBeGreaterThan(0.75);
    expect(new Set(verified.map((r) => r.source))).toEqual(new Set(['google', 'yelp', 'direct', 'facebook', 'angi']));
  });

  it('names technicians and services in the text, not only in tags', () => {
    const { business, reviews } = content;
    const namesTech = (r: ReviewContent) => business.technicians.some((t) => [t.name, ...t.aliases].some((a) => mentions(r.text, a)));
    const namesService = (r: ReviewContent) => business.services.some((s) => [s.name, ...s.aliases].some((a) => mentions(r.text, a)));
    expect(reviews.filter((r) => r.technicians === undefined && namesTech(r)).length).toBeGreaterThan(100);
    expect(reviews.filter((r) => r.technicians !== undefined).length).toBeGreaterThan(50);
    expect(reviews.filter((r) => r.services === undefined && namesService(r)).length).toBeGreaterThan(100);
    expect(reviews.filter((r) => r.services !== undefined).length).toBeGreaterThan(50);
    // Every technician and the aliases customers use actually turn up in the text.
    for (const t of business.technicians) {
      expect(reviews.some((r) => mentions(r.text, t.name)), t.name).toBe(true);
      expect(reviews.some((r) => t.aliases.some((a) => mentions(r.text, a) && !mentions(r.text, t.name))), t.name).toBe(true);
    }
    // One job, one technician: a text never names two of them.
    for (const r of reviews) {
      const named = business.technicians.filter((t) => [t.name, ...t.aliases].some((a) => mentions(r.text, a)));
      expect(named.length, r.text).toBeLessThanOrEqual(1);
    }
  });

  it('writes 1 to 5 sentences whose tone follows the rating', () => {
    const praise =
      /\b(on time|punctual|prompt|fair|reasonable|great|excellent|professional|courteous|friendly|polite|respectful|pleasant|kind|thorough|knowledgeable|knew|expert|honest|trust\w*|spotless|tidy|quick|fast|efficient|recommend|easy|perfectly|top notch|worth|best|better|glad|happy|awesome|thank)\b/i;
    const complaint =
      /\b(late|no-show|no one|nobody|never|not|didn't|wasn't|isn't|couldn't|wouldn't|rude|overcharged|outrageous|mess|sloppy|poor|nightmare|ridiculous|worse|slow|forever|double|pushy|avoid|disappointed|unprofessional|inexperienced|unacceptable|impossible)\b/i;
    const { reviews } = content;
    for (const r of reviews) {
      const n = countSentences(r.text);
      expect(n >= 1 && n <= 5, `${n} sentences: ${r.text}`).toBe(true);
    }
    const share = (rating: number, re: RegExp) => {
      const rated = reviews.filter((r) => r.rating === rating);
      return rated.filter((r) => re.test(r.text)).length / rated.length;
    };
    // Keyword cues are crude (praise is often implicit), so compare the ends of the scale.
    expect(share(5, praise) - share(1, praise)).toBeGreaterThan(0.35);
    expect(share(1, complaint) - share(5, complaint)).toBeGreaterThan(0.5);
    expect(share(3, complaint)).toBeGreaterThan(share(5, complaint));
    expect(share(3, complaint)).toBeLessThan(share(1, complaint));
    // Mixed sentences, negations, intensifiers and comparatives are all there for aspect analysis to chew on.
    const all = reviews.map((r) => r.text).join('\n');
    for (const cue of [/, but /, /\bnot on time\b|\bwasn't on time\b/, /\bdidn't clean up\b|\bdid not clean up\b/, /\b(very|extremely|incredibly) \w+/, /\b(better|more expensive|cheaper) than\b/]) {
      expect(all, String(cue)).toMatch(cue);
    }
    expect(new Set(reviews.map((r) => r.text)).size).toBeGreaterThan(reviews.length * 0.97);
  });

  it('gives the demo two shops, each with its own telephone, areas and Google listing, and every area to one of them', () => {
    const { business } = content;
    const locations = business.locations ?? [];
    expect(locations.map((l) => l.id)).toEqual(['knoxville', 'maryville']);
    for (const location of locations) {
      expect(location.telephone, location.id).toBeDefined();
      expect(location.address?.locality, location.id).toBe(location.name);
      expect(location.google_location, location.id).toMatch(/^accounts\/\d+\/locations\/\d+$/);
    }
    expect(new Set(locations.map((l) => l.telephone)).size).toBe(2);
    expect(new Set(locations.map((l) => l.google_location)).size).toBe(2);
    expect(locations.flatMap((l) => l.service_areas ?? []).sort()).toEqual([...business.service_areas].sort());
  });

  it("files each demo review under the shop that serves its area, and leaves only direct reviews naming no area without one", () => {
    const { business, reviews } = content;
    const shopOf = new Map(business.locations!.flatMap((l) => (l.service_areas ?? []).map((area) => [area, l.id] as const)));
    const unplaced = reviews.filter((r) => r.location === undefined);
    for (const r of reviews) {
      if (r.service_area !== undefined) expect(r.location, r.id).toBe(shopOf.get(r.service_area));
    }
    for (const r of unplaced) expect([r.source, r.service_area], r.id).toEqual(['direct', undefined]);
    // A few, so the site shows what the business counts beside its locations.
    expect(unplaced.length).toBeGreaterThan(0);
    expect(unplaced.length).toBeLessThan(reviews.length * 0.05);
    const byShop = (id: string) => reviews.filter((r) => r.verified && r.location === id).length;
    expect(byShop('maryville')).toBeGreaterThan(50);
    expect(byShop('knoxville')).toBeGreaterThan(byShop('maryville'));
  });

  it('has Spanish reviews on Google with Google’s English translation beside them, and no title', () => {
    const spanish = content.reviews.filter((r) => r.language !== undefined);
    expect(spanish.length).toBeGreaterThan(content.reviews.length * 0.05);
    expect(spanish.length).toBeLessThan(content.reviews.length * 0.1);
    for (const r of spanish) {
      expect(r.language, r.id).toBe('es');
      expect(r.source, r.id).toBe('google');
      expect(r.title, r.id).toBeUndefined();
      expect(r.translation, r.id).toEqual({ text: expect.any(String), language: 'en', by: 'google' });
      // The customer's words are Spanish (the detector is unsure of only the shortest), the translation English.
      expect(detectLanguage(r.text), r.text).not.toBe('en');
      expect(detectLanguage(r.translation!.text), r.translation!.text).toBe('en');
      expect(r.translation!.text.split(/[.!] ?/).length, r.id).toBe(r.text.split(/[.!] ?/).length);
    }
    expect(spanish.filter((r) => detectLanguage(r.text) === 'es').length).toBeGreaterThan(spanish.length * 0.9);
    // No English review carries a language or a translation.
    expect(content.reviews.filter((r) => r.translation !== undefined)).toEqual(spanish);
  });

  it('honours --count, --end and --seed', async () => {
    const small = join(tmp, 'small');
    await generate('--out', small, '--count', '60', '--end', '2025-06-30', '--seed', 'other');
    const { business, reviews, files } = await load(small);
    expect(reviews.length).toBe(60);
    // Content for benchmarks is not the demo: no locations, no Spanish reviews (as no jobs and no photos).
    expect(business.locations).toBeUndefined();
    expect(reviews.filter((r) => r.location !== undefined || r.language !== undefined)).toEqual([]);
    expect(reviews.every((r) => r.date <= '2025-06-30')).toBe(true);
    expect([...files.keys()].at(-1)).toBe('reviews/2025-06.json');
    const sameSeed = join(tmp, 'small-default-seed');
    await generate('--out', sameSeed, '--count', '60', '--end', '2025-06-30');
    expect((await readOwnedFiles(sameSeed)).get('reviews/2025-06.json')).not.toBe(files.get('reviews/2025-06.json'));
  });

  it('replaces stale review files and leaves the rest of the content folder alone', async () => {
    const dir = join(tmp, 'stale');
    await mkdir(join(dir, 'reviews'), { recursive: true });
    await writeFile(join(dir, 'reviews', '1999-01.json'), '[]\n');
    await writeFile(join(dir, 'reviews', 'notes.txt'), 'keep me\n');
    await writeFile(join(dir, 'aspects.json'), '{"keep":true}\n');
    await generate('--out', dir, '--count', '30');
    const names = await readdir(join(dir, 'reviews'));
    expect(names).not.toContain('1999-01.json');
    expect(names).toContain('notes.txt');
    expect(await readFile(join(dir, 'aspects.json'), 'utf8')).toBe('{"keep":true}\n');
  });

  it.each([
    [['--count', '0']],
    [['--count', 'many']],
    [['--end', '2026-02-30']],
    [['--unknown', 'x']],
  ])('rejects %j with a usage message and exit code 2', async (args) => {
    const failure = await generate('--out', join(tmp, 'rejected'), ...args).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toContain('usage: node tools/generate-content.ts');
  });
});
