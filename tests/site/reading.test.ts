/**
 * Reading the reviews (issue 20 item 4; issue 24 item 8), on a small business given a long review and
 * names and titles written right to left or carrying a direction override (U+202E), built and served
 * for real: the query and an aspect's evidence marked in search results, the match count said once, a
 * long review folded behind a "Read more" that works without JavaScript, the search form folded after a
 * search on a 390×844 phone, and every name and title isolated (`<bdi>` or `dir`), in real Chromium; the
 * widget and the technicians page of the technician of that one review say so in the singular, and the
 * page of a technician no review names says so once, with no empty list of reviews under it; and a review in a
 * language the analyser does not read is said to be left out of the figures it is not in.
 */
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublishedReview } from '../../core/schemas/published.ts';
import { assignTechnicianSlugs, servicePath, technicianPath } from '../../core/urls.ts';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { decodeEntities } from '../helpers/html.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { buildTestSite, SMALL_CONTENT } from '../helpers/site-build.ts';

const PHONE = { width: 390, height: 844 };
/** Right-to-left override: unisolated, it reverses the rest of its line. */
const RLO = '\u202e';
const TECHNICIAN = `נועה ${RLO}כהן`;
const SERVICE = { id: 'duct-cleaning', name: `${RLO}Duct cleaning`, aliases: [] };
const AREA = `${RLO}Shelbyville`;
/** A technician no review names. */
const UNNAMED = 'Quinn Abernathy';
const LONG_TEXT = [
  'Our furnace quit on the coldest night of the year, and I called at six in the morning expecting voicemail.',
  'A person answered, listened, and had someone at the door before nine, which I did not expect at all.',
  'The technician explained what had failed, showed me the cracked igniter, and gave me the price before touching anything.',
  'He also noticed the filter had not been changed in far too long and showed me how to do it myself next time.',
  'Everything was cleaned up afterwards, the old part was left on the counter so I could see it, and the bill matched the quote.',
  'Two weeks later the office called to ask whether the furnace was still running well, which it is, quietly and evenly.',
  'I have used three other companies over the years and none of them treated me like this; I will not be looking again.',
].join(' ');
const LONG_REVIEW = {
  id: 'r-long',
  rating: 5,
  date: '2024-12-10',
  title: `${RLO}Worth every penny`,
  text: LONG_TEXT,
  author: `نور ${RLO}الهدى`,
  verified: true,
  technicians: [TECHNICIAN],
  services: ['duct-cleaning', 'furnace-repair'],
  service_area: AREA,
  response: { text: 'Thank you!', date: '2024-12-11' },
};

/** In Spanish, with no English translation: the analyser cannot read it (core/insights/read-as-english.ts). */
const UNREAD_REVIEW = {
  id: 'r-es',
  rating: 2,
  date: '2025-03-04',
  text: 'Dana llegó tarde y la calefacción volvió a fallar a la semana.',
  author: 'Lucía P.',
  verified: true,
  language: 'es',
};

let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let browser: Browser;
let technicianPage: string;
let unnamedPage: string;
let danaPage: string;

beforeAll(async () => {
  const contentDir = path.join(await mkdtemp(path.join(tmpdir(), 'reading-')), 'content');
  await cp(SMALL_CONTENT, contentDir, { recursive: true });
  const businessFile = path.join(contentDir, 'business.json');
  const business = JSON.parse(await readFile(businessFile, 'utf8'));
  business.name = `Brightline ${RLO}Heating`;
  business.technicians.push({ name: TECHNICIAN, aliases: [] }, { name: UNNAMED, aliases: [] });
  business.services.push(SERVICE);
  business.service_areas.push(AREA);
  await writeFile(businessFile, JSON.stringify(business));
  await writeFile(path.join(contentDir, 'reviews', '2024-12.json'), JSON.stringify([LONG_REVIEW]));
  await writeFile(path.join(contentDir, 'reviews', '2025-03.json'), JSON.stringify([UNREAD_REVIEW]));
  const { distDir } = await buildTestSite({ contentDir });
  sidecar = await startTestSidecar({ distDir });
  browser = await launchBrowser();
  const names = business.technicians.map((t: { name: string }) => t.name);
  technicianPage = technicianPath(assignTechnicianSlugs(names).get(TECHNICIAN)!);
  unnamedPage = technicianPath(assignTechnicianSlugs(names).get(UNNAMED)!);
  danaPage = technicianPath(assignTechnicianSlugs(names).get('Dana Whitfield')!);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await sidecar?.close();
});

async function getHtml(pathAndQuery: string): Promise<string> {
  const res = await fetch(`${sidecar.url}${pathAndQuery}`, { headers: { Accept: 'text/html' } });
  expect(res.status, pathAndQuery).toBe(200);
  return res.text();
}

async function searchRest(query: string): Promise<PublishedReview[]> {
  const res = await fetch(`${sidecar.url}/api/reviews/search?${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { reviews: PublishedReview[] }).reviews;
}

/** Each result's marked strings, by review id. */
function marksByReview(html: string): Map<string, string[]> {
  const marks = new Map<string, string[]>();
  for (const article of html.matchAll(/<article class="review" id="([^"]+)">([\s\S]*?)<\/article>/g)) {
    marks.set(article[1]!, [...article[2]!.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => decodeEntities(m[1]!)));
  }
  return marks;
}

describe('search results', () => {
  it('mark every occurrence of the query, in the title and the text, on both sides of a fold', async () => {
    const reviews = await searchRest('query=furnace');
    expect(reviews.map((r) => r.id)).toContain('r-long');
    const marks = marksByReview(await getHtml('/search/?query=furnace'));
    expect([...marks.keys()]).toEqual(reviews.map((r) => r.id));
    for (const review of reviews) {
      const occurrences = `${review.title ?? ''} ${review.text}`.toLowerCase().split('furnace').length - 1;
      expect(marks.get(review.id), review.id).toEqual(Array(occurrences).fill(expect.stringMatching(/^furnace$/i)));
    }
    const long = /<article class="review" id="r-long">([\s\S]*?)<\/article>/.exec(await getHtml('/search/?query=furnace'))![1]!;
    expect(long.split('<details class="read-more">').map((part) => part.split('<mark>').length - 1)).toEqual([1, 1]); // one on each side of the fold
  });

  it("mark the evidence of the aspect an aspect link names, from the published offsets", async () => {
    const query = 'aspect=price&aspect_sentiment=negative';
    const reviews = await searchRest(query);
    expect(reviews.length).toBeGreaterThan(0);
    const marks = marksByReview(await getHtml(`/search/?${query}`));
    for (const review of reviews) {
      const price = review.aspects.find((a) => a.aspect === 'price')!;
      const expected = price.evidence.map((span) => (span.field === 'title' ? review.title! : review.text).slice(span.start, span.end));
      expect(marks.get(review.id), review.id).toEqual(expected);
    }
  });

  it('say the match count once', async () => {
    const html = await getHtml('/search/?query=furnace');
    const main = /<main[\s\S]*<\/main>/.exec(html)![0];
    expect(main.match(/reviews? match/g)).toHaveLength(1);
  });
});

describe('a review over 600 characters, without JavaScript', () => {
  it('shows its first 400 or so characters and the rest on "Read more"', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${sidecar.url}/reviews/2024-12/`);
    const card = page.locator('#r-long');
    const visibleText = async () =>
      card.locator('p[dir=auto]').evaluateAll((ps) => ps.filter((p) => !p.closest('.reply') && p.checkVisibility()).map((p) => p.textContent).join(' '));
    const folded = await visibleText();
    expect(folded.length).toBeGreaterThan(200);
    expect(folded.length).toBeLessThan(460);
    expect(LONG_TEXT.startsWith(folded.replace(/…$/, ''))).toBe(true);
    await card.getByText('Read more').click();
    const unfolded = await visibleText();
    expect(unfolded.replace('…', '').replace(/\s+/g, ' ')).toContain(LONG_TEXT.slice(-120));
    await context.close();
  });
});

describe('the search form on a 390×844 phone', () => {
  it('folds after a search without JavaScript, the first result on the first screen', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${sidecar.url}/search/`);
    expect(await page.locator('[data-search-filters]').evaluate((d: HTMLDetailsElement) => d.open)).toBe(true);
    await page.fill('#f-query', 'furnace');
    await Promise.all([page.waitForURL(/query=furnace/), page.click('form[role=search] button[type=submit]')]);
    expect(await page.locator('[data-search-filters]').evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    const top = await page.locator('article.review').first().evaluate((el) => el.getBoundingClientRect().top);
    expect(top).toBeLessThan(PHONE.height);
    await context.close();
  });

  it('folds when a search is sent with JavaScript too, and stays unfolded on a wide screen', async () => {
    const phone = await browser.newPage({ viewport: PHONE });
    await phone.goto(`${sidecar.url}/search/`);
    await phone.fill('#f-query', 'furnace');
    await phone.click('form[role=search] button[type=submit]');
    await phone.waitForURL(/query=furnace/);
    await phone.waitForFunction(() => document.querySelector('[data-search-results] article.review') !== null);
    expect(await phone.locator('[data-search-filters]').evaluate((d: HTMLDetailsElement) => d.open)).toBe(false);
    expect(await phone.locator('article.review').first().evaluate((el) => el.getBoundingClientRect().top)).toBeLessThan(PHONE.height);
    await phone.close();
    const wide = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await wide.goto(`${sidecar.url}/search/?query=furnace`);
    await wide.waitForFunction(() => (document.querySelector('[data-search-filters]') as HTMLDetailsElement).open);
    await wide.close();
  });
});

/** Text nodes holding a direction override that no `<bdi>` or `dir` element isolates, open shadow roots included. */
async function findUnisolated(page: Page): Promise<string[]> {
  return page.evaluate((rlo) => {
    const found: string[] = [];
    const visit = (root: Node) => {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
      for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) {
        if (node instanceof Element && node.shadowRoot) visit(node.shadowRoot);
        if (node.nodeType !== Node.TEXT_NODE || !node.textContent!.includes(rlo)) continue;
        const parent = node.parentElement!;
        if (parent.closest('title, script, style, option')) continue;
        const isolating = parent.closest('bdi, [dir]');
        if (isolating === null || isolating === document.documentElement) found.push(`${parent.tagName.toLowerCase()}: ${node.textContent!.trim().slice(0, 60)}`);
      }
    };
    visit(document.body);
    return found;
  }, RLO);
}

describe('names and titles written right to left or with a direction override', () => {
  it('are isolated on every page that shows them, and in the widget', { timeout: 120_000 }, async () => {
    const page = await browser.newPage();
    const found: Record<string, string[]> = {};
    const pages = ['/', '/reviews/', '/reviews/2024-12/', '/technicians/', technicianPage, '/services/', servicePath(SERVICE.id), '/search/?query=furnace', '/about/', '/developers/', '/developers/api/', '/no-such-page/'];
    for (const url of pages) {
      await page.goto(`${sidecar.url}${url}`);
      const problems = await findUnisolated(page);
      if (problems.length > 0) found[url] = problems;
    }
    await page.goto(`${sidecar.url}/embed/?count=3&technician=${encodeURIComponent(TECHNICIAN)}`);
    await page.locator('reviews-widget .reviews li').first().waitFor();
    const inWidget = await findUnisolated(page);
    if (inWidget.length > 0) found.widget = inWidget;
    expect(found).toEqual({});
    await page.close();
  });

  it('leave the rest of their line in order', async () => {
    const page = await browser.newPage();
    await page.goto(`${sidecar.url}/reviews/2024-12/`);
    const meta = page.locator('#r-long .meta').first();
    const author = await meta.locator('bdi').first().boundingBox();
    const date = await meta.locator('time').boundingBox();
    expect(date!.x).toBeGreaterThan(author!.x + author!.width - 1);
    await page.close();
  });
});

describe('the widget of a technician with one review', () => {
  it('links to it in the singular: "Read the review", not "Read all 1 reviews"', async () => {
    const page = await browser.newPage();
    await page.goto(`${sidecar.url}/embed/?technician=${encodeURIComponent(TECHNICIAN)}`);
    const more = page.locator('reviews-widget .more a');
    await more.waitFor();
    expect(await more.textContent()).toBe('Read the review');
    await page.close();
  });
});

describe('the technicians page and a technician no review names', () => {
  it('counts the one review in the singular', async () => {
    const cards = (await getHtml('/technicians/')).split('<article class="card entity">').slice(1);
    expect(cards.find((c) => c.includes(technicianPage))).toContain('average · 1 review</p>');
    expect(cards.find((c) => c.includes(unnamedPage))).toContain('No reviews yet');
  });

  it('says once that no review names them, with no empty list of reviews', async () => {
    const html = await getHtml(unnamedPage);
    expect(decodeEntities(html)).toContain(`No published review mentions <bdi>${UNNAMED}</bdi> yet.`);
    expect(html).not.toContain('id="reviews-title"');
    expect(html).not.toContain('Reviews that mention');
  });
});

describe('a review the analyser cannot read', () => {
  const note = 'One review is not counted here: it is written in a language the analysis does not read, with no English translation.';
  const shown = (html: string) => decodeEntities(html).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

  it('is said to be left out, under the figures of the home page and of the technician it names', async () => {
    expect((await searchRest('mentions_technician=Dana')).map((r) => r.id)).toContain(UNREAD_REVIEW.id);
    for (const page of ['/', danaPage]) {
      const html = shown(await getHtml(page));
      expect(html, page).toContain(note);
      // Under the figures it is not counted in.
      expect(html.indexOf(note), page).toBeGreaterThan(html.indexOf(page === '/' ? 'What customers say' : 'What customers say about their work'));
    }
  });

  it('is not analysed: no aspects of its own, and left out of every aspect share', async () => {
    const dataset = (await (await fetch(`${sidecar.url}/reviews.json`)).json()) as { reviews: { id: string; aspects: unknown[] }[] };
    expect(dataset.reviews.find((r) => r.id === UNREAD_REVIEW.id)!.aspects).toEqual([]);
    const insights = (await (await fetch(`${sidecar.url}/insights.json`)).json()) as { basis: { review_count: number; unread?: number }; aspects: { mentions: number; share_of_reviews: number }[] };
    expect(insights.basis.unread).toBe(1);
    const read = insights.basis.review_count - 1;
    for (const aspect of insights.aspects) expect(aspect.share_of_reviews).toBe(Math.round((aspect.mentions / read) * 10_000) / 10_000);
  });

  it('is not said of a technician whose reviews are all read', async () => {
    expect(shown(await getHtml(technicianPage))).not.toContain('not counted here');
  });
});

describe('the search page, where the lowest-rated reviews are', () => {
  it('links each result to its check in the public log, which confirms it in the browser', async () => {
    const html = decodeEntities(await getHtml('/search/?sort=lowest'));
    const cards = [...html.matchAll(/<article class="review" id="([^"]+)">([\s\S]*?)<\/article>/g)];
    expect(cards.length).toBeGreaterThan(1);
    for (const [, id, body] of cards) expect(body, id).toContain(`<p class="meta log-entry">In the <a href="/log/">public log</a> — <a href="/log/check/?review=${id}">check it<span class="vh">`);
    const page = await browser.newPage();
    await page.goto(`${sidecar.url}/search/?sort=lowest`);
    const first = cards[0]![1]!;
    await page.locator(`article#${first} .log-entry a`, { hasText: 'check it' }).click();
    const verdict = page.locator('[data-verdict="verified"], [data-verdict="failed"]');
    await verdict.waitFor();
    expect([page.url().endsWith(`/log/check/?review=${first}`), await verdict.getAttribute('data-verdict')]).toEqual([true, 'verified']);
    await page.close();
  });
});

describe('the questions customers ask, on the home page', () => {
  it('link to the reviews of their aspect: "the one review" for one, no link for none', async () => {
    const html = decodeEntities(await getHtml('/'));
    const insights = (await (await fetch(`${sidecar.url}/insights.json`)).json()) as { faq: { id: string; aspect: string | null; figures: { mentions?: number } }[] };
    const withAspect = insights.faq.filter((e) => e.aspect !== null && e.figures.mentions !== undefined);
    expect(withAspect.some((e) => e.figures.mentions === 1)).toBe(true);
    expect(withAspect.some((e) => e.figures.mentions === 0)).toBe(true);
    for (const entry of withAspect) {
      const details = html.slice(html.indexOf(`<details id="faq-${entry.id}">`)).split('</details>')[0]!;
      const link = new RegExp(`<a href="/search/\\?aspect=${entry.aspect}">([^<]*)</a>`).exec(details)?.[1];
      const n = entry.figures.mentions!;
      expect([entry.id, link]).toEqual([entry.id, n === 0 ? undefined : n === 1 ? 'the one review' : `all ${n}`]);
    }
  });
});

describe('the aspects of the home page', () => {
  it('link to the reviews of each, in the singular for an aspect one review mentions', async () => {
    const html = decodeEntities(await getHtml('/'));
    const links = [...html.matchAll(/<a href="\/search\/\?aspect=[a-z_-]+">([^<]*)<span class="vh">([^<]*)<\/span><\/a>/g)].map((m) => `${m[1]}${m[2]}`).sort();
    const insights = (await (await fetch(`${sidecar.url}/insights.json`)).json()) as { aspects: { label: string; mentions: number }[] };
    const mentioned = insights.aspects.filter((a) => a.mentions > 0);
    expect(mentioned.some((a) => a.mentions === 1)).toBe(true);
    expect(links).toEqual(mentioned.map((a) => (a.mentions === 1 ? `The review about ${a.label}` : `All ${a.mentions} reviews about ${a.label}`)).sort());
  });
});

