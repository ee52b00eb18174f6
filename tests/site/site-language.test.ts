/**
 * The site in the business's language (issue 43 item 4): a copy of the demo with `"locale": "es"` in
 * business.json, two locations, and its customers' words in Spanish (each review keeps its English words as
 * the translation its source gave), built and served by the real sidecar. The home page, a location's page,
 * the search page the service fills for each query, /log/, the developer pages and the widget (in real
 * Chromium) are in Spanish: `<html lang="es">`, and none of the words of the English catalogue that Spanish
 * does not share.
 */
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../core/i18n/en.ts';
import { es } from '../../core/i18n/es.ts';
import type { BusinessContent, ReviewContent } from '../../core/schemas/content.ts';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { decodeEntities } from '../helpers/html.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, DEMO_CONTENT } from '../helpers/site-build.ts';

const LOCATIONS = [
  { id: 'centro', name: 'Taller del centro', address: { street: '4120 Kingston Pike', locality: 'Knoxville', region: 'TN', postal_code: '37919', country: 'US' }, service_areas: ['Knoxville', 'Farragut'] },
  { id: 'norte', name: 'Taller del norte', telephone: '+1-865-555-0199' },
];
/** The customers' words, in Spanish, by rating. */
const SPANISH: Record<number, { title: string; text: string }> = {
  1: { title: 'Muy decepcionado', text: 'Llegaron tarde, no arreglaron nada y la factura fue altísima.' },
  2: { title: 'Regular tirando a mal', text: 'El técnico fue amable, pero tuvieron que volver dos veces.' },
  3: { title: 'Correcto', text: 'Cumplieron, aunque tardaron más de lo que dijeron.' },
  4: { title: 'Buen trabajo', text: 'Vinieron a la hora acordada y dejaron todo limpio.' },
  5: { title: 'Excelente', text: 'Puntuales, amables y con un precio justo. Los recomiendo.' },
};
const REPLY = 'Gracias por su reseña. Nos alegra haberle ayudado.';

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let browser: Browser;
let host: Server;
let hostUrl: string;
let business: BusinessContent;
/** Words the test content itself holds (names of the business, its people, services and places, reviewers). */
let contentWords: Set<string>;
/** A published review, for its check page. */
let reviewId: string;

beforeAll(async () => {
  const contentDir = path.join(await mkdtemp(path.join(tmpdir(), 'site-language-')), 'content');
  await cp(DEMO_CONTENT, contentDir, { recursive: true });
  const businessFile = path.join(contentDir, 'business.json');
  business = { ...(JSON.parse(await readFile(businessFile, 'utf8')) as BusinessContent), locale: 'es', locations: LOCATIONS };
  await writeFile(businessFile, JSON.stringify(business));
  const authors: string[] = [];
  const files = (await readdir(path.join(contentDir, 'reviews'))).filter((f) => f.endsWith('.json'));
  let n = 0;
  for (const file of files) {
    const full = path.join(contentDir, 'reviews', file);
    const reviews = JSON.parse(await readFile(full, 'utf8')) as ReviewContent[];
    for (const review of reviews) {
      // The English words stay beside the customer's, as a translation: the analyser reads them (core/insights).
      // (The demo's own Spanish reviews have theirs already.)
      review.translation ??= { text: review.text, ...(review.title === undefined ? {} : { title: review.title }), language: 'en', by: 'google' };
      review.language = 'es';
      review.text = SPANISH[review.rating]!.text;
      review.title = SPANISH[review.rating]!.title;
      if (review.response) review.response.text = REPLY;
      for (const media of review.media ?? []) delete media.alt;
      const location = LOCATIONS[n++ % 3];
      if (location !== undefined) review.location = location.id;
      else delete review.location;
      authors.push(review.author);
    }
    await writeFile(full, JSON.stringify(reviews));
  }
  contentWords = new Set(
    [business.name, ...business.service_areas, ...business.services.flatMap((s) => [s.name, ...s.aliases]), ...business.technicians.flatMap((t) => [t.name, ...t.aliases]), ...authors]
      .flatMap(wordsOf)
      .map((w) => w.toLowerCase()),
  );
  const { distDir } = await buildTestSite({ contentDir });
  sidecar = await startTestSidecar({ distDir });
  reviewId = ((await (await fetch(`${sidecar.url}/reviews.json`)).json()) as { reviews: { id: string }[] }).reviews[0]!.id;
  browser = await launchBrowser();
  // A page of the owner's own site, on another origin, with the widget's two lines.
  host = createServer((_, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Nuestra empresa</title></head><body>
<script src="${sidecar.url}/widget.js" async></script><reviews-widget count="5" media="true"></reviews-widget>
<reviews-widget count="2" technician="Sarah Kowalski" sort="best"></reviews-widget></body></html>`);
  });
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await sidecar?.close();
  host?.close();
});

function wordsOf(text: string): string[] {
  return text.match(/\p{L}+/gu) ?? [];
}

/** The words of a catalogue string: not its placeholders, its markup or its code (`/api/reviews/search` is no word). */
function wordsOfString(value: string): string[] {
  return wordsOf(value.replace(/<code>[\s\S]*?<\/code>|\{\w+\}|<[^>]+>/g, ' '));
}

/** Every string of a catalogue, plural forms and lists included, by its dotted key. */
function flatten(value: unknown, key = ''): [string, string][] {
  if (typeof value === 'string') return [[key, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => flatten(v, `${key}.${i}`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([k, v]) => flatten(v, key === '' ? k : `${key}.${k}`));
  return [];
}

/**
 * The English interface words: the words of every English string that Spanish writes otherwise, less the
 * words Spanish uses too ("a", "no", "Google", "API") and the content's own names ("Riverbend Home
 * Services" holds "Home" and "Services").
 */
function listEnglishWords(): string[] {
  const spanish = new Map(flatten(es));
  const shared = new Set(flatten(es).flatMap(([, v]) => wordsOfString(v).map((w) => w.toLowerCase())));
  const words = flatten(en)
    .filter(([key, value]) => spanish.get(key) !== value)
    .flatMap(([, value]) => wordsOfString(value));
  return [...new Set(words.map((w) => w.toLowerCase()))].filter((w) => w.length > 1 && !shared.has(w) && !contentWords.has(w)).sort();
}

/** Products named on the developer pages, names as the business's are. */
const PRODUCT_NAMES = ['Claude Code'];

/**
 * What a person reads on a page: its text, its title, the description and titles it gives others to show,
 * and the labels of its controls and images. Left out: what the customers wrote in English (the
 * translations beside their words), the topic chips (phrases found in the reviews), code and commands
 * (`<code>`, `<pre>`), addresses and paths, and the names of products.
 */
function readVisibleText(html: string): string {
  const shown = [...html.matchAll(/<meta (?:name|property)="(?:description|og:[a-z_:]+|twitter:[a-z]+)" content="([^"]*)"/g)].map((m) => m[1]!).filter((v) => !/^(https?:|image\/|website$|summary_large_image$|\d)/.test(v));
  let body = html.slice(html.indexOf('<title>')).replace(/<(script|style|template|pre|code)\b[\s\S]*?<\/\1>/g, ' ').replace(/<meta\b[^>]*>/g, ' ');
  body = body.replace(/<details class="translation">[\s\S]*?<\/details>/g, ' ').replace(/<ul class="chips topics">[\s\S]*?<\/ul>/g, ' ');
  const attributes = [...body.matchAll(/\s(?:aria-label|title|placeholder|alt)="([^"]*)"/g)].map((m) => m[1]!);
  const text = decodeEntities([...shown, ...attributes, body.replace(/<[^>]+>/g, ' ')].join(' ')).replace(/https?:\/\/\S+|\S+\.(?:json|txt|xml)\b|(?<!\S)\/\S+/g, ' ');
  return PRODUCT_NAMES.reduce((rest, name) => rest.replaceAll(name, ' '), text);
}

/** Each English interface word in `text`, with a few words around it. */
function findEnglish(text: string): string[] {
  const found: string[] = [];
  for (const word of listEnglishWords()) {
    const match = new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'iu').exec(text);
    if (match) found.push(`${word}: …${text.slice(Math.max(0, match.index - 40), match.index + word.length + 40).replace(/\s+/g, ' ')}…`);
  }
  return found;
}

describe('a site whose business.json says "locale": "es"', () => {
  it('has English interface words to look for', () => {
    const words = listEnglishWords();
    expect(words.length).toBeGreaterThan(300);
    expect(['newest', 'reviews', 'search', 'technician', 'verified', 'withdrawn', 'customers'].filter((w) => !words.includes(w))).toEqual([]);
    // …and finds them.
    expect(findEnglish('Newest reviews · Search the reviews')).toHaveLength(3);
  });

  it.each([
    ['the home page', '/', 200],
    ["a location's page", `/locations/${LOCATIONS[0]!.id}/`, 200],
    ['the search page', '/search/', 200],
    ['a search marking what each review says about an aspect', '/search/?aspect=price&aspect_sentiment=negative&limit=5', 200],
    ['a search with filters to fix', '/search/?rating=9&since=2025-13-01&colour=red&mentions_technician=nobody', 400],
    ['the public log', '/log/', 200],
    // The other pages of the site, and its 404.
    ['the locations', '/locations/', 200],
    ['the technicians', '/technicians/', 200],
    ["a technician's page", '/technicians/sarah-kowalski/', 200],
    ["a service's page", '/services/water-heater/', 200],
    ['the months', '/reviews/', 200],
    ["a month's page", '/reviews/2026-11/', 200],
    ['/about/', '/about/', 200],
    ['/about/reviews/', '/about/reviews/', 200],
    ['the page of an unknown address', '/no-such-page/', 404],
    ['the developer overview', '/developers/', 200],
  ])('writes %s in Spanish', async (_, page, status) => {
    const res = await fetch(`${sidecar.url}${page}`, { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(status);
    const html = await res.text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="es">/i);
    expect(html).toContain('<meta property="og:locale" content="es_ES">');
    expect(findEnglish(readVisibleText(html))).toEqual([]);
  });

  it("names the widget's frame in Spanish in the snippet /developers/ gives the owner", async () => {
    const html = decodeEntities(await (await fetch(`${sidecar.url}/developers/`)).text());
    const frames = html.match(/<iframe [^>]*>/g) ?? [];
    expect(frames).toHaveLength(1);
    expect(frames[0]).toContain(`title="${es.widget.heading}"`);
  });

  it("writes the API reference in Spanish, leaving out only the OpenAPI document's own words, marked as English", async () => {
    const html = await (await fetch(`${sidecar.url}/developers/api/`)).text();
    expect(html).toMatch(/^<!DOCTYPE html><html lang="es">/i);
    // The document's names and descriptions are the API's, English whatever the site's language (docs/content.md).
    // Each sits in an element of its own marked lang="en" (one holding another of its kind would leave English
    // behind, which the check finds).
    const english = /<(\w+)\b[^>]*\blang="en"[^>]*>[\s\S]*?<\/\1>/g;
    const marked = html.match(english) ?? [];
    expect(marked.length).toBeGreaterThan(100);
    expect(marked.filter((element) => !/^<(a|div|h2|h3|p|span|strong|td)\b/.test(element))).toEqual([]);
    expect(html).toContain('<h1>Referencia de la API</h1>');
    expect(html).toContain('<th scope="col">Parámetro</th>');
    // An operation's HTTP method is code; a table's label names its operation or schema as the document does
    // ("Parámetros de GET /reviews.json", "Campos de Review").
    const labels = [es.apiReference.parametersOf, es.apiReference.fieldsOf].map((label) => new RegExp(label.replace(/\{\w+\}/g, '[^\\s"<]+'), 'g'));
    const rest = labels.reduce((page, label) => page.replace(label, ' '), html.replace(english, ' ').replace(/<span class="method">[A-Z]+<\/span>/g, ' '));
    expect(findEnglish(readVisibleText(rest))).toEqual([]);
  });

  it('writes numbers and dates as Spanish does', async () => {
    const html = decodeEntities(await (await fetch(`${sidecar.url}/`)).text());
    expect(html).toMatch(/<strong>\d,\d<\/strong>/); // the average, "4,4"
    expect(html).toMatch(/\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre) de \d{4}/);
    expect(html).toMatch(/\d+\u00a0%/);
  });

  it('gives the feeds their language and Spanish titles', async () => {
    const atom = await (await fetch(`${sidecar.url}/feed.xml`)).text();
    expect(atom).toContain('xml:lang="es"');
    expect(atom).toContain(`<title type="text">Reseñas de ${business.name}</title>`);
    const feed = (await (await fetch(`${sidecar.url}/api/feed.json`)).json()) as { language: string; title: string };
    expect(feed).toMatchObject({ language: 'es', title: `Reseñas de ${business.name}` });
  });

  it('shows the widget in Spanish on the owner\'s page', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(hostUrl);
    const widgets = page.locator('reviews-widget');
    await widgets.first().locator('.more a').waitFor();
    await widgets.nth(1).locator('.more a').waitFor();
    const texts = await widgets.evaluateAll((all) =>
      all.map((widget) => {
        const root = widget.shadowRoot!;
        const labels = [...root.querySelectorAll('[aria-label], [alt]')].map((el) => `${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('alt') ?? ''}`);
        // The reviews' own words are the customers' (Spanish here), their translations English and marked so;
        // everything else is the widget's.
        const box = root.querySelector('.box')!.cloneNode(true) as Element;
        for (const translated of box.querySelectorAll('[lang]:not([lang="es"])')) translated.remove();
        return [box.textContent ?? '', ...labels].join(' ');
      }),
    );
    const cards = await widgets.first().locator('.reviews li').evaluateAll((items) =>
      items.map((li) => ({
        lang: li.querySelector('.text')!.getAttribute('lang'),
        summary: li.querySelector('details.translation summary')?.textContent,
        translation: [...new Set([...li.querySelectorAll('details.translation p')].map((p) => p.getAttribute('lang')))],
      })),
    );
    const box = await widgets.first().locator('.box').getAttribute('lang');
    await page.close();
    // In the site's language, the customers' words need no `lang` of their own; Google's English does.
    expect(box).toBe('es');
    expect(cards).toEqual(Array(5).fill({ lang: null, summary: expect.stringMatching(/^Traducida por Google \(la reseña de .+\)$/), translation: ['en'] }));
    expect(texts[0]).toContain('reseñas verificadas');
    expect(texts[0]).toContain('Cada reseña publicada está en un registro público');
    expect(texts[1]).toContain('Reseñas de clientes de Sarah Kowalski');
    for (const text of texts) expect(findEnglish(text)).toEqual([]);
  });

  it('fits each star label of the histograms beside its bar, the bars one under another, on the home page and in the widget', { timeout: 60_000 }, async () => {
    // The text's own extent, not its box: a grid cell narrower than its text lets the text run over the bar.
    const measure = (rows: Element[]) =>
      rows.map((row) => {
        const range = document.createRange();
        range.selectNodeContents(row.firstElementChild!);
        return { label: row.firstElementChild!.textContent, right: Math.round(range.getBoundingClientRect().right), bar: Math.round(row.querySelector('.bar')!.getBoundingClientRect().left) };
      });
    const tab = await browser.newPage();
    await tab.goto(`${sidecar.url}/`);
    const page = await tab.locator('.histogram li').evaluateAll(measure);
    await tab.goto(hostUrl);
    await tab.locator('reviews-widget').first().locator('.more a').waitFor();
    // Playwright's locators reach into the widget's shadow root.
    const widget = await tab.locator('reviews-widget').first().locator('.hist li').evaluateAll(measure);
    await tab.close();
    for (const rows of [page, widget]) {
      expect(rows.map((r) => r.label)).toEqual(['5 estrellas', '4 estrellas', '3 estrellas', '2 estrellas', '1 estrella']);
      for (const row of rows) expect(row.right, row.label).toBeLessThanOrEqual(row.bar);
      expect(new Set(rows.map((r) => r.bar)).size).toBe(1);
    }
  });

  it.each([
    ['checks a review in the browser', () => `/log/check/?review=${reviewId}`, 'verified', 'Esta reseña es tal como se registró el'],
    ['says a receipt code is of no job', () => '/log/job/?code=0000-0000-0000-0000-0', 'not-found', 'No hay ningún trabajo con este código de recibo'],
  ])('%s, in Spanish', { timeout: 60_000 }, async (_, page, verdict, sentence) => {
    const tab = await browser.newPage();
    const res = await tab.goto(`${sidecar.url}${page()}`);
    expect(await res!.text()).toMatch(/<html lang="es">/);
    await tab.waitForSelector('[data-verdict]:not([data-verdict="pending"])');
    const found = await tab.locator('[data-verdict]').evaluate((el) => ({ state: el.getAttribute('data-verdict'), text: el.closest('section')!.textContent ?? '' }));
    await tab.close();
    expect(found.state).toBe(verdict);
    expect(found.text).toContain(sentence);
    // The log's key (`<name>+<id>+<key>`) is a key, not words.
    expect(findEnglish(found.text.replace(/\S+\+[0-9a-f]{8}\+\S+/g, ' '))).toEqual([]);
  });
});
