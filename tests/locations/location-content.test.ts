/**
 * Locations in the content (issue 43, item 1): business.json may list `locations`, a review may name
 * one, and `npm run import -- google` fills a review's location from the Google location its `name`
 * says, matched to the business's `google_location`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../core/config.ts';
import { parseSyncArgs, runSync } from '../../scripts/sync/main.ts';
import { createTestCa } from '../../tools/lib/https-ca.ts';
import { LOCATION, SECOND_LOCATION, makeReviews, startGoogleStandIn } from '../../tools/lib/google-stand-in.ts';
import { parseContent, type RawContent } from '../../core/content/parse-content.ts';
import { formatContentProblem } from '../../core/content/problems.ts';
import { deriveReviewId } from '../../scripts/import/record.ts';
import { copySmallContent, fixture, readReviews, runImport } from '../import/harness.ts';

const business = {
  name: 'Acme Air',
  url: 'https://acme.example',
  telephone: '555',
  address: { street: '1 A St', locality: 'Town', region: 'ST', postal_code: '00001', country: 'US' },
  services: [{ id: 'ac-repair', name: 'AC repair' }],
  technicians: [],
  service_areas: ['Town'],
};
const boise = { id: 'boise', name: 'Boise shop', google_location: 'accounts/1/locations/10' };
const nampa = { id: 'nampa', name: 'Nampa shop', telephone: '556', service_areas: ['Nampa'], google_location: 'accounts/1/locations/20' };
const review = (over: Record<string, unknown>) => ({ id: 'r-1', rating: 5, date: '2025-01-01', text: 'Fine.', author: 'A', verified: true, ...over });
const raw = (reviews: unknown[], biz: unknown): RawContent => ({ business: { file: 'business.json', data: biz }, reviewFiles: [{ file: 'reviews/a.json', data: reviews }] });
const problemsOf = (content: RawContent) => {
  const parsed = parseContent(content);
  return parsed.ok ? [] : parsed.problems.map(formatContentProblem);
};

describe('parseContent with locations', () => {
  it('accepts locations and reviews that name one, and keeps a review without one', () => {
    const parsed = parseContent(raw([review({ location: 'nampa' }), review({ id: 'r-2' })], { ...business, locations: [boise, nampa] }));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.business.locations?.map((l) => l.id)).toEqual(['boise', 'nampa']);
    expect(parsed.value.reviews.map((r) => r.location)).toEqual(['nampa', undefined]);
  });

  it('refuses a review naming an unknown location, and says which ids are known', () => {
    expect(problemsOf(raw([review({ location: 'meridian' })], { ...business, locations: [boise, nampa] }))).toEqual([
      'reviews/a.json, review r-1, field location: unknown location "meridian" (the locations in business.json: boise, nampa)',
    ]);
    expect(problemsOf(raw([review({ location: 'boise' })], business))).toEqual(['reviews/a.json, review r-1, field location: unknown location "boise": business.json lists no locations']);
  });

  it('refuses duplicate location ids and Google locations, and a malformed location', () => {
    expect(problemsOf(raw([], { ...business, locations: [boise, { ...nampa, id: 'boise', google_location: boise.google_location }] }))).toEqual([
      'business.json, field locations.1.id: duplicate location id "boise"',
      'business.json, field locations.1.google_location: duplicate location google_location "accounts/1/locations/10"',
    ]);
    const bad = problemsOf(raw([], { ...business, locations: [{ id: 'Boise Shop', name: 'x', google_location: 'boise' }] }));
    expect(bad).toEqual([
      expect.stringMatching(/^business\.json, field locations\.0\.id: /),
      expect.stringMatching(/^business\.json, field locations\.0\.google_location: must be a Business Profile location name/),
    ]);
  });
});

describe('npm run import -- google into a business with locations', () => {
  const PAGE = fixture('google-api-page-1.json');

  it("gives each review the location whose google_location its name says, and none when no location matches", async () => {
    const content = await copySmallContent();
    const file = path.join(content, 'business.json');
    const biz = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const page = JSON.parse(await readFile(PAGE, 'utf8')) as { reviews: { name: string; reviewId?: string }[] };
    // The fixture's reviews are all of one location; the second is moved to a location the business does not list.
    const [first, third] = page.reviews;
    third!.name = third!.name.replace('/locations/4512345678901234567/', '/locations/999/');
    const pageFile = path.join(path.dirname(content), 'page.json');
    await writeFile(pageFile, JSON.stringify(page));
    await writeFile(file, JSON.stringify({ ...biz, locations: [{ id: 'springfield', name: 'Springfield', google_location: 'locations/4512345678901234567' }, { id: 'chatham', name: 'Chatham' }] }));

    const run = await runImport(content, ['google', pageFile]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const reviews = await readReviews(content);
    const idOf = (name: string) => deriveReviewId('google', name.slice(name.lastIndexOf('/') + 1));
    expect(reviews.get(idOf(first!.name))!.location).toBe('springfield');
    expect(reviews.get(idOf(third!.name))!).not.toHaveProperty('location');
    expect(Object.keys(reviews.get(idOf(first!.name))!)).toContain('location');

    // An owner's own location on a review Google files nowhere known is kept by a re-import.
    const stored = reviews.get(idOf(third!.name))!;
    const text = await readFile(path.join(content, 'reviews', stored.file), 'utf8');
    await writeFile(path.join(content, 'reviews', stored.file), text.replace(`"id": "${stored.id}",`, `"id": "${stored.id}",\n    "location": "chatham",`));
    expect((await runImport(content, ['google', pageFile])).code).toBe(0);
    expect((await readReviews(content)).get(stored.id)!.location).toBe('chatham');
  });

  it('leaves a business without locations exactly as before: no review gets a location', async () => {
    const content = await copySmallContent();
    expect((await runImport(content, ['google', PAGE])).code).toBe(0);
    for (const review of (await readReviews(content)).values()) expect(review).not.toHaveProperty('location');
  });
});

describe('npm run import -- csv into a business with locations', () => {
  it("gives each review the location its location column names, by id or name in any case, and none when it names no location", async () => {
    const content = await copySmallContent();
    const file = path.join(content, 'business.json');
    const biz = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    await writeFile(file, JSON.stringify({ ...biz, locations: [{ id: 'springfield', name: 'Springfield Shop' }, { id: 'chatham', name: 'Chatham' }] }));
    const csv = path.join(path.dirname(content), 'yelp.csv');
    await writeFile(csv, ['Date,Rating,Reviewer,Review Text,Branch', '2025-03-01,5,Ann B,Fixed the furnace fast.,springfield', '2025-03-02,4,Bo C,Good AC tune-up.,  springfield   SHOP ', '2025-03-03,3,Cy D,Late but fine.,Chatham', '2025-03-04,5,Di E,Great water heater job.,Elsewhere', '2025-03-05,5,Ed F,Friendly.,'].join('\n'));
    const run = await runImport(content, ['csv', csv, '--source', 'yelp']);
    expect(run.code, run.stderr).toBe(0);
    const imported = [...(await readReviews(content)).values()].filter((r) => r.source === 'yelp' && ['Ann B', 'Bo C', 'Cy D', 'Di E', 'Ed F'].includes(String(r.author)));
    expect(Object.fromEntries(imported.map((r) => [r.author, r.location]))).toEqual({ 'Ann B': 'springfield', 'Bo C': 'springfield', 'Cy D': 'chatham', 'Di E': undefined, 'Ed F': undefined });
  });
});

describe('npm run sync -- google into a business with locations', () => {
  const ca = createTestCa();
  let google: Awaited<ReturnType<typeof startGoogleStandIn>>;
  beforeAll(async () => {
    google = await startGoogleStandIn(ca);
  });
  afterAll(async () => {
    await google?.close();
    ca.remove();
  });

  /** A copy of the small content whose business has the stand-in's two locations (or `only` one). */
  async function contentWithLocations(only?: string) {
    const content = await copySmallContent();
    const file = path.join(content, 'business.json');
    const biz = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    const listed = [
      { id: 'springfield', name: 'Springfield', google_location: LOCATION },
      { id: 'shelbyville', name: 'Shelbyville', google_location: SECOND_LOCATION },
    ].filter((l) => only === undefined || l.google_location === only);
    await writeFile(file, JSON.stringify({ ...biz, locations: listed }));
    return content;
  }
  async function sync(content: string, env: Record<string, string> = {}, args: string[] = []) {
    const parsed = parseSyncArgs(['google', ...args]);
    const config = parseConfig({ ...google.env(), CONTENT_DIR: content, DATA_DIR: path.join(path.dirname(content), 'data'), ...env });
    if (!parsed.ok || !config.ok) throw new Error(`bad test setup: ${config.ok ? '' : config.problems.join('; ')}`);
    const out: string[] = [];
    const code = await runSync(parsed.options, { config: config.config, contentDir: content, out: (l) => out.push(l), err: (l) => out.push(l), ca: ca.certPem, retryBaseMs: 5 });
    return { code, out: out.join('\n') };
  }
  const synced = async (content: string) => [...(await readReviews(content)).values()].filter((r) => r.id.startsWith('google-'));
  const locationsOf = async (content: string) => Object.fromEntries((await synced(content)).map((r) => [r.id, r.location]));
  const pagesBy = () => google.takePageRequests().map((r) => r.path.slice('/v4/'.length, -'/reviews'.length));
  const idsOf = (reviews: { reviewId: string }[]) => reviews.map((r) => deriveReviewId('google', r.reviewId));

  it('files every synced review under the location of GOOGLE_LOCATION', async () => {
    google.reviews = makeReviews(3);
    google.more.clear();
    const content = await contentWithLocations(LOCATION);
    expect((await sync(content)).code).toBe(0);
    expect((await synced(content)).map((r) => r.location)).toEqual(['springfield', 'springfield', 'springfield']);
  });

  it('reads every location business.json lists when GOOGLE_LOCATION is unset, each review in its own, each location stopping at its own newest change', async () => {
    google.reviews = makeReviews(60, Date.parse('2026-03-01T09:00:00Z'), 'Spr');
    google.more = new Map([[SECOND_LOCATION, makeReviews(3, Date.parse('2026-01-01T09:00:00Z'), 'Shel')]]);
    const content = await contentWithLocations();
    pagesBy();
    const first = await sync(content, { GOOGLE_LOCATION: '' });
    expect(first.code, first.out).toBe(0);
    expect(pagesBy()).toEqual([LOCATION, LOCATION, SECOND_LOCATION]);
    const placed = await locationsOf(content);
    for (const id of idsOf(google.reviews)) expect(placed[id]).toBe('springfield');
    for (const id of idsOf(google.more.get(SECOND_LOCATION)!)) expect(placed[id]).toBe('shelbyville');
    expect(Object.keys(placed)).toHaveLength(63);
    expect(JSON.parse(await readFile(path.join(content, 'reviews', '.sync-google'), 'utf8'))).toEqual({
      newest: { [LOCATION]: '2026-03-01T09:59:00.000Z', [SECOND_LOCATION]: '2026-01-01T09:02:00.000Z' },
    });
    // A new review in the second location only: one page of each is read, and it lands there. The
    // first location's stop point is later than all of the second's reviews, so a shared stop point
    // would have missed it.
    google.more.get(SECOND_LOCATION)!.push(...makeReviews(1, Date.parse('2026-02-01T09:00:00Z'), 'Late'));
    const second = await sync(content, { GOOGLE_LOCATION: '' });
    expect(second.code, second.out).toBe(0);
    expect(second.out).toContain('1 added');
    expect(pagesBy()).toEqual([LOCATION, SECOND_LOCATION]);
    expect((await locationsOf(content))[idsOf(google.more.get(SECOND_LOCATION)!.slice(-1))[0]!]).toBe('shelbyville');
  });

  it('reads the locations GOOGLE_LOCATION names, several separated by commas, or all the token reads', async () => {
    google.reviews = makeReviews(2, Date.parse('2026-03-01T09:00:00Z'), 'Spr');
    google.more = new Map([[SECOND_LOCATION, makeReviews(2, Date.parse('2026-01-01T09:00:00Z'), 'Shel')]]);
    for (const value of [`${LOCATION}, ${SECOND_LOCATION}`, 'all']) {
      const content = await contentWithLocations();
      pagesBy();
      const run = await sync(content, { GOOGLE_LOCATION: value });
      expect(run.code, run.out).toBe(0);
      expect(pagesBy()).toEqual([LOCATION, SECOND_LOCATION]);
      expect(Object.values(await locationsOf(content)).sort()).toEqual(['shelbyville', 'shelbyville', 'springfield', 'springfield']);
    }
    expect(parseConfig({ GOOGLE_LOCATION: `${LOCATION},locations/3` })).toMatchObject({ ok: false, problems: [expect.stringContaining('GOOGLE_LOCATION')] });
  });

  it('--full of one location withdraws what that location no longer lists, and nothing of the other', async () => {
    google.reviews = makeReviews(3, Date.parse('2026-03-01T09:00:00Z'), 'Spr');
    google.more = new Map([[SECOND_LOCATION, makeReviews(3, Date.parse('2026-01-01T09:00:00Z'), 'Shel')]]);
    const content = await contentWithLocations();
    expect((await sync(content, { GOOGLE_LOCATION: '' })).code).toBe(0);
    const gone = google.reviews.shift()!;
    const run = await sync(content, { GOOGLE_LOCATION: LOCATION }, ['--full']);
    expect(run.code, run.out).toBe(0);
    expect(run.out).toContain('1 withdrawn');
    const left = await locationsOf(content);
    expect(left).not.toHaveProperty(deriveReviewId('google', gone.reviewId));
    for (const id of idsOf(google.more.get(SECOND_LOCATION)!)) expect(left[id]).toBe('shelbyville');
    expect(Object.keys(left)).toHaveLength(5);
  });

  it('a stop point written before locations were named still stops a sync of one location', async () => {
    google.reviews = makeReviews(120, Date.parse('2026-03-01T09:00:00Z'), 'Spr');
    google.more.clear();
    const content = await contentWithLocations(LOCATION);
    expect((await sync(content)).code).toBe(0);
    await writeFile(path.join(content, 'reviews', '.sync-google'), `${JSON.stringify({ newest: '2026-03-01T10:59:00.000Z' })}\n`);
    pagesBy();
    const run = await sync(content);
    expect(run.code, run.out).toBe(0);
    expect(pagesBy()).toEqual([LOCATION]);
    // The next change rewrites it with the location named.
    google.reviews.push(...makeReviews(1, Date.parse('2026-04-01T09:00:00Z'), 'Late'));
    expect((await sync(content)).code).toBe(0);
    expect(JSON.parse(await readFile(path.join(content, 'reviews', '.sync-google'), 'utf8'))).toEqual({ newest: { [LOCATION]: '2026-04-01T09:00:00.000Z' } });
  });
});
