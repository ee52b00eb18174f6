/**
 * /log/check/?review=<id> in real Chromium, on plain static copies of a build (tests/helpers/static-server.ts),
 * as a homeowner would use it: an honest review is `verified`, a review changed since it was first published
 * says so, with the rating the change replaced, a copy where a review's words were changed
 * everywhere (its dataset, its page and its proof) is `failed`, and on a log of 10,000 entries at 4× CPU
 * slowdown the verdict comes after loading under 100 KB. How soon is `npm run bench -- check-page`'s.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { buildLogFiles, encodeLogEntry, formatVerifierKey, generateSigner, type LogEntry } from '../../core/log/index.ts';
import { createTranslator } from '../../core/i18n/translator.ts';
import { asCosigner, cosignCheckpoint, formatCosignerKey } from '../../core/log/cosignature.ts';
import { digestReview } from '../../core/log/review-digest.ts';
import { buildReviewProofs } from '../../core/log/review-proofs.ts';
import { readLogEntries } from '../helpers/log-entries.ts';
import { buildTestSite } from '../helpers/site-build.ts';
import { startStaticServer, type StaticServer } from '../helpers/static-server.ts';

const ORIGINAL_WORDS = 'Mike fixed our furnace in an hour.';
let browser: Browser;
let work: string;
let dist: string;
/** The day r-0001's entry says it was logged, as the pages write it: the day the build made the log. */
let loggedOn: string;
const servers: StaticServer[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'log-check-'));
  ({ distDir: dist } = await buildTestSite({ outDir: path.join(work, 'dist') }));
  const first = (await readLogEntries(dist)).find((e) => e.action === 'publish' && e.review_id === 'r-0001');
  if (!first) throw new Error('the log has no entry of r-0001');
  loggedOn = createTranslator().date(first.time.slice(0, 10));
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all(servers.map((s) => s.close()));
});

/** A static copy of the build, changed by `edit` first. */
async function serveCopy(name: string, edit: (dir: string) => Promise<void> = async () => {}): Promise<string> {
  const dir = path.join(work, name);
  // The build's own folder: `dist` is a link, which cp would copy as a link, and `edit` would then change the build.
  await cp(await realpath(dist), dir, { recursive: true });
  await edit(dir);
  const server = await startStaticServer(dir);
  servers.push(server);
  return server.url;
}

/** A copy of the build whose log is `entries` alone, under a key of its own, with `review`'s proof from entry `index`. */
async function serveWithLog(name: string, review: { id: string; date: string; rating: number }, entries: Uint8Array[], index: number): Promise<string> {
  const signer = generateSigner('reviews.example.com/log');
  const { files, tree } = buildLogFiles({ origin: signer.name, entries, signer });
  const proof = buildReviewProofs({ reviews: [review], entries, latest: new Map([[review.id, { index }]]), tree, checkpoint: files.get('checkpoint')!.toString('utf8') }).get(review.id)!;
  return serveCopy(name, async (dir) => {
    await writeFile(path.join(dir, 'log', 'vkey'), files.get('vkey')!);
    await writeFile(path.join(dir, 'log', 'policy'), `log ${files.get('vkey')!.toString('utf8').trim()}\nquorum none\n`);
    await writeFile(path.join(dir, 'log', 'proof', `${review.id}.tlog-proof`), proof);
  });
}

async function verdictOf(page: Page, url: string): Promise<{ state: string; text: string }> {
  await page.goto(url);
  const verdict = page.locator('[data-verdict="verified"], [data-verdict="failed"]');
  await verdict.waitFor({ timeout: 10_000 });
  return { state: (await verdict.getAttribute('data-verdict'))!, text: (await verdict.textContent())! };
}

async function replaceInFile(file: string, from: string, to: string) {
  const text = await readFile(file, 'utf8');
  expect(text).toContain(from);
  await writeFile(file, text.replaceAll(from, to));
}

describe('the check page', () => {
  it('says in words that an honest review is as it was logged, and shows it', async () => {
    const base = await serveCopy('honest');
    const page = await browser.newPage();
    const month = await page.goto(`${base}/reviews/2025-01/`).then(() => page.locator('article#r-0001 .log-entry'));
    expect(await month.textContent()).toBe(`In the public log since ${loggedOn} — check it (this review by Maria G.)`);
    await month.locator('a', { hasText: 'check it' }).click();
    await page.waitForURL(/\/log\/check\/\?review=r-0001$/);
    const { state, text } = await verdictOf(page, page.url());
    expect(state).toBe('verified');
    expect(text).toBe(
      `This review is as it was logged on ${loggedOn}, entry 0, signed by the business's key. No independent witness confirms this log yet, so this shows what the business published, not that it showed everyone the same.`,
    );
    expect(await page.locator('[data-check-review]').textContent()).toContain(ORIGINAL_WORDS);
    // Published once, never changed: nothing says otherwise.
    expect(await page.locator('[data-check-details]').textContent()).not.toContain('changed since');
    await page.close();
  });

  it('says a changed review was changed since it was first published, how, and the rating the change replaced', async () => {
    // r-0001 first logged with 2 stars, then corrected by the business to its 5: the proof is of the update.
    const review = (JSON.parse(await readFile(path.join(dist, 'reviews.json'), 'utf8')).reviews as { id: string; date: string; rating: number }[]).find((r) => r.id === 'r-0001')!;
    const entries = [
      encodeLogEntry({ action: 'publish', review_id: review.id, time: '2026-03-04T10:00:00Z', date: review.date, rating: 2, digest: digestReview({ ...review, rating: 2 }) }),
      encodeLogEntry({ action: 'update', review_id: review.id, time: '2026-03-09T10:00:00Z', date: review.date, rating: review.rating, digest: digestReview(review), change: 'correction', reason: 'entry_error', previous_rating: 2 }),
    ];
    const base = await serveWithLog('changed', review, entries, 1);
    const page = await browser.newPage();
    const { state, text } = await verdictOf(page, `${base}/log/check/?review=r-0001`);
    const details = await page.locator('[data-check-details] li').allTextContents();
    await page.close();
    expect(state).toBe('verified');
    expect(text).toContain('logged on March 9, 2026, entry 1');
    expect(details.slice(0, 2)).toEqual([
      'It has been changed since it was first published (entry 1, on March 9, 2026): changed by the business (it had been entered wrong). Each earlier version is in the log, and the log page lists every change of a rating.',
      'That change took its rating from 2 to 5 out of 5.',
    ]);
  });

  it('fails a CDN copy where the review’s words were changed, in its page, its dataset and its proof', async () => {
    const base = await serveCopy('rewritten', async (dir) => {
      const changed = 'Mike fixed our furnace in ten minutes.';
      await replaceInFile(path.join(dir, 'reviews.json'), ORIGINAL_WORDS, changed);
      await replaceInFile(path.join(dir, 'reviews', '2025-01', 'index.html'), ORIGINAL_WORDS, changed);
      // The proof's extra carries the review as logged: rewritten too, as a dishonest copy would.
      const proofFile = path.join(dir, 'log', 'proof', 'r-0001.tlog-proof');
      const lines = (await readFile(proofFile, 'utf8')).split('\n');
      const extra = Buffer.from(lines[1]!.slice('extra '.length), 'base64').toString('utf8');
      expect(extra).toContain(ORIGINAL_WORDS);
      lines[1] = `extra ${Buffer.from(extra.replace(ORIGINAL_WORDS, changed)).toString('base64')}`;
      await writeFile(proofFile, lines.join('\n'));
    });
    const page = await browser.newPage();
    const { state, text } = await verdictOf(page, `${base}/log/check/?review=r-0001`);
    expect(state).toBe('failed');
    expect(text).toContain('This review could not be confirmed. This review is not the one logged at entry 0');
    expect(await page.locator('[data-check-details]').textContent()).toContain("The log's entry 0 says: a 5-star review of January 3, 2025");
    await page.close();
  });

  it('is offered on /log/, which speaks to a person before any term of the trade, no words run together', async () => {
    const base = await serveCopy('log-page');
    const page = await browser.newPage();
    await page.goto(`${base}/log/`);
    const text = await page.locator('main').innerText();
    expect(text).toContain('None has been withdrawn. The log holds 7 entries');
    expect(text).toContain('in the public record. Check a review by its id.');
    expect(text).toContain("Tools built on Go's golang.org/x/mod/sumdb packages");
    expect(text.indexOf('Check a review yourself')).toBeLessThan(text.indexOf('Certificate Transparency'));
    expect(text.indexOf('nobody')).toBeLessThan(text.search(/checkpoint|C2SP|Merkle|tlog/));
    await page.locator('a', { hasText: 'Check a review by its id' }).click();
    await page.locator('#review-id').fill('r-0002');
    await page.locator('button', { hasText: 'Check' }).click();
    expect(await verdictOf(page, page.url())).toMatchObject({ state: 'verified', text: expect.stringContaining('entry 1,') });
    await page.close();
  });

  it("weighs the witnesses' cosignatures against the site's policy: named when its quorum is met, failed when not", async () => {
    const reviews = JSON.parse(await readFile(path.join(dist, 'reviews.json'), 'utf8')).reviews as { id: string; date: string; rating: number }[];
    const review = reviews.find((r) => r.id === 'r-0001')!;
    const signer = generateSigner('reviews.example.com/log');
    const [w1, w2] = [asCosigner(generateSigner('w1.example/witness')), asCosigner(generateSigner('w2.example/witness'))];
    const entries = [encodeLogEntry({ action: 'publish', review_id: review.id, time: '2026-03-04T10:00:00Z', date: review.date, rating: review.rating, digest: digestReview(review) })];
    const { files, tree } = buildLogFiles({ origin: signer.name, entries, signer });
    const note = files.get('checkpoint')!.toString('utf8');
    const checkpoint = note + cosignCheckpoint(note.slice(0, note.lastIndexOf('\n\n') + 1), w1, 1_772_600_000);
    const proof = buildReviewProofs({ reviews: [review], entries, latest: new Map([[review.id, { index: 0 }]]), tree, checkpoint }).get(review.id)!;
    const vkey = files.get('vkey')!.toString('utf8').trim();
    const witnesses = `log ${vkey}\nwitness one ${formatCosignerKey(w1)}\nwitness two ${formatCosignerKey(w2)}\n`;
    const withPolicy = (name: string, policy: string) =>
      serveCopy(name, async (dir) => {
        await writeFile(path.join(dir, 'log', 'vkey'), `${vkey}\n`);
        await writeFile(path.join(dir, 'log', 'proof', 'r-0001.tlog-proof'), proof);
        await writeFile(path.join(dir, 'log', 'policy'), policy);
      });
    const page = await browser.newPage();
    const met = await verdictOf(page, `${await withPolicy('policy-any', `${witnesses}group g any one two\nquorum g\n`)}/log/check/?review=r-0001`);
    expect(met).toEqual({ state: 'verified', text: "This review is as it was logged on March 4, 2026, entry 0, signed by the business's key and confirmed by 1 independent witness: w1.example/witness." });
    const unmet = await verdictOf(page, `${await withPolicy('policy-all', `${witnesses}group g all one two\nquorum g\n`)}/log/check/?review=r-0001`);
    expect(unmet).toEqual({ state: 'failed', text: 'This review could not be confirmed. The checkpoint lacks the witnesses the policy asks for: 1 cosigned, not w2.example/witness.' });
    const otherKey = await verdictOf(page, `${await withPolicy('policy-other-key', `log ${formatVerifierKey(generateSigner('reviews.example.com/log'))}\nquorum none\n`)}/log/check/?review=r-0001`);
    expect(otherKey).toEqual({ state: 'failed', text: "The site's witness policy names another key for its log than the one it serves." });
    await page.close();
  });

  it.each([
    ['an id with no proof', 'r-9999', 'This site has no proof for a review "r-9999"'],
    ['a malformed id', '../vkey', 'That is not a review id'],
  ])('fails %s with a sentence, not a hang', async (_name, id, message) => {
    const base = await serveCopy(`missing-${_name.length}`);
    const page = await browser.newPage();
    const { state, text } = await verdictOf(page, `${base}/log/check/?review=${encodeURIComponent(id)}`);
    expect(state).toBe('failed');
    expect(text).toContain(message);
    await page.close();
  });

  it('answers at 4× CPU slowdown for a log of 10,000 entries, loading under 100 KB', async () => {
    // A log of 10,000 entries whose entry 7,777 is review r-0001: the proof the page reads is as long as a
    // 10,000-review site's (the page itself does not grow with the site).
    const reviews = JSON.parse(await readFile(path.join(dist, 'reviews.json'), 'utf8')).reviews as { id: string; date: string; rating: number }[];
    const review = reviews.find((r) => r.id === 'r-0001')!;
    const entries: Uint8Array[] = [];
    for (let i = 0; i < 10_000; i++) {
      const entry: LogEntry = { action: 'publish', review_id: i === 7_777 ? review.id : `x-${i}`, time: '2026-03-04T10:00:00Z', date: review.date, rating: review.rating, digest: digestReview(i === 7_777 ? review : { id: `x-${i}` }) };
      entries.push(encodeLogEntry(entry));
    }
    const base = await serveWithLog('large', review, entries, 7_777);
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const { state, text } = await verdictOf(page, `${base}/log/check/?review=r-0001`);
    // From the navigation's start to the verdict, as the page itself timed it.
    const elapsed = await page.evaluate(() => performance.getEntriesByName('log-check-verdict')[0]!.startTime);
    // Every byte the page loaded: the page, its script and style, the proof and the key.
    const bytes = await page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].reduce((n, e) => n + (e as PerformanceResourceTiming).encodedBodySize, 0),
    );
    expect(state).toBe('verified');
    expect(text).toContain('logged on March 4, 2026, entry 7777');
    expect(bytes).toBeGreaterThan(10_000);
    expect(bytes).toBeLessThan(100_000);
    console.log(`check page at 4× slowdown, 10,000 entries: ${Math.round(elapsed)} ms, ${bytes} bytes`);
    await page.close();
  });
});
