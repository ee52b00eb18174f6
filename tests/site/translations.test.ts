/**
 * Issue 43 item 3, end to end: a Spanish review Google translated, imported with `npm run import -- google`
 * into a copy of the small content, built for real and served by the real sidecar. The customer's words
 * and `es` are published, Google's English translation sits behind a disclosure that says it is Google's,
 * search finds the review by a Spanish word and an English one (saying when only the translation matched),
 * and a build after editing only the translation appends nothing to the review log.
 */
import { mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveReviewId } from '../../scripts/import/record.ts';
import { copySmallContent, readReviews, runImport } from '../import/harness.ts';
import { validateAtom } from '../helpers/atom-validate.ts';
import { REVIEW_NAMESPACE } from '../../core/feeds/render-atom-feed.ts';
import { connectClient } from '../mcp/mcp-fixture.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { runScript } from '../helpers/run-script.ts';
import { buildTestSite } from '../helpers/site-build.ts';

const PUBLIC_URL = 'https://reviews.example.com';
const ID = deriveReviewId('google', 'AbSpAnIsH1tRaNsLaTeD_Qw2Er4Ty6');
const ORIGINAL = 'Rápidos y honestos. Dana reparó la fuga del calentador un domingo y nos explicó todo.';
const TRANSLATION = 'Fast and honest. Dana repaired the heater leak on a Sunday and explained everything to us.';
const EXPORT = {
  reviews: [
    {
      reviewId: 'AbSpAnIsH1tRaNsLaTeD_Qw2Er4Ty6',
      reviewer: { displayName: 'Lucía Ramírez' },
      starRating: 'FIVE',
      comment: `(Translated by Google) ${TRANSLATION}\n\n(Original)\n${ORIGINAL}`,
      createTime: '2025-02-23T15:04:05Z',
    },
  ],
};

type Review = Record<string, unknown> & { id: string; text: string };
let work: string;
let content: string;
let distDir: string;
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;

const build = () => buildTestSite({ contentDir: content, publicUrl: PUBLIC_URL, outDir: distDir, own: true });
const checkpoint = async () => readFile(path.join(await realpath(distDir), 'log', 'checkpoint'), 'utf8');
const get = async (p: string) => {
  const res = await fetch(`${sidecar.url}${p}`);
  expect(res.status, p).toBe(200);
  return res;
};
const search = async (query: string) => (await (await get(`/api/reviews/search?query=${encodeURIComponent(query)}`)).json()) as { reviews: Review[] };

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'translations-'));
  content = await copySmallContent();
  distDir = path.join(work, 'dist');
  const file = path.join(work, 'google.json');
  await writeFile(file, JSON.stringify(EXPORT));
  const run = await runImport(content, ['google', file]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  // A Spanish review with no translation: the insights cannot read it.
  const february = path.join(content, 'reviews', '2025-02.json');
  const reviews = JSON.parse(await readFile(february, 'utf8')) as Review[];
  await writeFile(february, JSON.stringify([...reviews, { id: 'r-0009', rating: 4, date: '2025-02-27', text: 'Muy puntuales y el precio fue justo.', author: 'Iker', verified: true, language: 'es' }]));
  await build();
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC_URL });
}, 300_000);
afterAll(async () => {
  await sidecar?.close();
});

describe('a review Google translated from Spanish', () => {
  it('is imported with the customer’s words as its text and Google’s translation apart', async () => {
    const stored = (await readReviews(content)).get(ID)!;
    expect(stored.text).toBe(ORIGINAL);
    expect(stored.language).toBe('es');
    expect(stored.translation).toEqual({ text: TRANSLATION, language: 'en', by: 'google' });
  });

  it('is published in /reviews.json with its text, `es` and the translation labelled as Google’s; English reviews carry neither', async () => {
    const { reviews } = (await (await get('/reviews.json')).json()) as { reviews: Review[] };
    const review = reviews.find((r) => r.id === ID)!;
    expect(review).toMatchObject({ text: ORIGINAL, language: 'es', translation: { text: TRANSLATION, title: null, language: 'en', by: 'google' } });
    const english = reviews.find((r) => r.id === 'r-0007')!;
    expect(english).not.toHaveProperty('language');
    expect(english).not.toHaveProperty('translation');
  });

  it('shows the original in Spanish and the translation behind a disclosure labelled as Google’s', async () => {
    const { reviews } = (await (await get('/reviews.json')).json()) as { reviews: (Review & { url: string })[] };
    const page = await (await get(new URL(reviews.find((r) => r.id === ID)!.url).pathname)).text();
    const card = page.slice(page.indexOf(`id="${ID}"`), page.indexOf('</article>', page.indexOf(`id="${ID}"`)));
    expect(card).toContain(`<p lang="es" dir="auto">${ORIGINAL}</p>`);
    expect(card).toMatch(/<details class="translation"><summary>Translated by Google<span class="vh">[^<]*<bdi>Lucía Ramírez<\/bdi>\)<\/span><\/summary><p lang="en" dir="auto">/);
    expect(card.indexOf(ORIGINAL)).toBeLessThan(card.indexOf(TRANSLATION));
    // Not in an open disclosure: the translation waits behind its summary, without JavaScript.
    expect(card).not.toContain('<details class="translation" open');
  });

  it('is found by a Spanish word of the original, and by an English word of the translation, which says so', async () => {
    const spanish = await search('calentador');
    expect(spanish.reviews.map((r) => r.id)).toEqual([ID]);
    expect(spanish.reviews[0]).not.toHaveProperty('matched_in');
    const english = await search('sunday');
    expect(english.reviews.map((r) => r.id)).toEqual([ID]);
    expect(english.reviews[0]!.matched_in).toBe('translation');
    // A review without a translation answers as before.
    const plain = await search('Rochester');
    expect(plain.reviews.length).toBeGreaterThan(0);
    for (const review of plain.reviews) expect(review).not.toHaveProperty('matched_in');
  });

  it('is analysed through its translation, quoted never, and the insights count the review they could not read', async () => {
    const { reviews } = (await (await get('/reviews.json')).json()) as { reviews: (Review & { aspects: { aspect: string; evidence: unknown[] }[] })[] };
    const review = reviews.find((r) => r.id === ID)!;
    // "Fast and honest": the English analyser reads it in the translation, not in "Rápidos y honestos".
    expect(review.aspects.map((a) => a.aspect)).toEqual(expect.arrayContaining(['speed', 'honesty']));
    // Evidence offsets index the customer's words, which the analyser did not read.
    for (const aspect of review.aspects) expect(aspect.evidence).toEqual([]);
    const insights = (await (await get('/insights.json')).json()) as { basis: { unread?: number }; aspects: { quotes: { review_id: string }[] }[] };
    expect(insights.basis.unread).toBe(1);
    expect(insights.aspects.flatMap((a) => a.quotes).map((q) => q.review_id)).not.toContain(ID);
  });

  it('carries the language and the translation in the JSON Feed’s _review', async () => {
    const feed = (await (await get('/api/feed.json')).json()) as { items: { id: string; content_text: string; _review: Record<string, unknown> }[] };
    const item = feed.items.find((i) => i.id.endsWith(`#${ID}`) || i.id.includes(ID))!;
    expect(item.content_text).toContain(ORIGINAL);
    expect(item._review).toMatchObject({ language: 'es', translation: { text: TRANSLATION, by: 'google', language: 'en' } });
  });

  it('carries the language and the translation, saying whose, in the Atom feed, which stays valid Atom', async () => {
    const xml = await (await get('/feed.xml')).text();
    expect(await validateAtom(xml)).toEqual([]);
    const entry = xml.split('<entry>').find((e) => e.includes(`#${ID}`) || e.includes(ID))!;
    expect(entry).toContain('<content type="text" xml:lang="es">');
    expect(entry.slice(entry.indexOf('<r:translation xml:lang="en" by="google">'))).toMatch(/^<r:translation[^>]*>[^<]*Sunday/i);
    expect(xml).toContain(`xmlns:r="${REVIEW_NAMESPACE}"`);
    // An English review's entry carries neither.
    const english = xml.split('<entry>').slice(1).find((e) => !e.includes(ID))!;
    expect(english).not.toContain('xml:lang');
    expect(english).not.toContain('r:translation');
  });

  it('is given by MCP get_review and search_reviews with its language and translation, labelled', async () => {
    const { client } = await connectClient(new URL('/mcp', sidecar.url));
    try {
      const got = await client.callTool({ name: 'get_review', arguments: { id: ID } });
      expect(got.isError).toBeFalsy();
      expect((got.structuredContent as { review: Review }).review).toMatchObject({ text: ORIGINAL, language: 'es', translation: { text: TRANSLATION, by: 'google' } });
      const found = await client.callTool({ name: 'search_reviews', arguments: { query: 'sunday' } });
      expect(found.isError).toBeFalsy();
      const [review] = (found.structuredContent as { reviews: Review[] }).reviews;
      expect(review).toMatchObject({ id: ID, text: ORIGINAL, language: 'es', matched_in: 'translation', translation: { text: TRANSLATION, by: 'google' } });
    } finally {
      await client.close();
    }
  });

  it('verifies with npm run verify: the served review, translation and all, is the one its log entry digests', async () => {
    const run = await runScript(process.execPath, ['scripts/verify.ts', sidecar.url, '--state', path.join(work, 'verify-state.json')], { env: { PATH: process.env.PATH ?? '' } });
    expect(run.stdout + run.stderr).toMatch(/Reviews: all \d+ in/);
    expect(run.code, run.stdout + run.stderr).toBe(0);
  });

  it('appends no log entry when only its translation changes, and one when its text does', async () => {
    const before = await checkpoint();
    const file = path.join(content, 'reviews', 'google-2025-02.json');
    const edit = async (change: (review: Review) => Review) => {
      const reviews = JSON.parse(await readFile(file, 'utf8')) as Review[];
      await writeFile(file, `${JSON.stringify(reviews.map((r) => (r.id === ID ? change(r) : r)), null, 2)}\n`);
    };
    await edit((r) => ({ ...r, translation: { text: 'Quick and honest. Dana fixed the heater leak on a Sunday.', language: 'en', by: 'google' } }));
    await build();
    // The checkpoint's second line is the log's size (C2SP tlog-checkpoint).
    expect((await checkpoint()).split('\n')[1]).toBe(before.split('\n')[1]);
    const { reviews } = JSON.parse(await readFile(path.join(await realpath(distDir), 'reviews.json'), 'utf8')) as { reviews: Review[] };
    expect(reviews.find((r) => r.id === ID)!.translation).toMatchObject({ text: 'Quick and honest. Dana fixed the heater leak on a Sunday.' });

    await edit((r) => ({ ...r, text: `${ORIGINAL} ¡Gracias!` }));
    await build();
    const after = await checkpoint();
    expect(Number(after.split('\n')[1])).toBe(Number(before.split('\n')[1]) + 1);
  }, 300_000);
});
