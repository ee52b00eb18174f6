/**
 * Receipts end to end (issue 42 item 3), on the demo content built for real and served by the sidecar: the
 * receipt `npm run jobs -- receipt` prints for a demo job is `found` by /log/job/ in real Chromium, with
 * the job's entry, week and service; a mistyped one is `not-found`. And nothing of the owner's jobs beyond
 * what the log may say (their ids, customers' names, invoice totals) is anywhere in the build.
 */
import { readdir, readFile } from 'node:fs/promises';
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../../tools/lib/browser.ts';
import { buildTestSite, DEMO_CONTENT } from '../helpers/site-build.ts';
import { startTestSidecar } from '../helpers/sidecar.ts';
import { runScript } from '../helpers/run-script.ts';
import { jobLocator, jobShardOf, parseReceiptCode } from '../../core/log/job.ts';
import { sha256 } from '../../core/log/sha256.ts';
import type { Manifest } from '../../core/publishing/manifest.ts';

const PUBLIC = 'https://reviews.example.com';
type DemoJob = { id: string; completed: string; service: string; area?: string; customer: string; total: number };

let browser: Browser;
let sidecar: Awaited<ReturnType<typeof startTestSidecar>>;
let distDir: string;
let manifest: Manifest;
let jobs: DemoJob[];

beforeAll(async () => {
  ({ distDir, manifest } = await buildTestSite({ contentDir: DEMO_CONTENT, publicUrl: PUBLIC }));
  sidecar = await startTestSidecar({ distDir, publicUrl: PUBLIC });
  browser = await launchBrowser();
  const files = await readdir(path.join(DEMO_CONTENT, 'jobs'));
  jobs = (await Promise.all(files.map(async (f) => JSON.parse(await readFile(path.join(DEMO_CONTENT, 'jobs', f), 'utf8')) as DemoJob[]))).flat();
}, 300_000); // a full build of the demo content, minutes on a busy machine
afterAll(async () => {
  await browser?.close();
  await sidecar?.close();
});

/** The receipt the owner prints, from the built site's own folders. */
async function printReceipt(id: string): Promise<{ code: string; address: string; logged: string }> {
  const env = { PATH: process.env.PATH ?? '', ENV_FILE: 'none', PUBLIC_URL: PUBLIC, CONTENT_DIR: DEMO_CONTENT, DIST_DIR: distDir, DATA_DIR: path.join(path.dirname(distDir), 'data') };
  const run = await runScript(process.execPath, ['scripts/jobs.ts', 'receipt', id], { env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return {
    code: /^Receipt code for job .+: (\S+)$/m.exec(run.stdout)![1]!,
    address: /^Check it at: (\S+)$/m.exec(run.stdout)![1]!,
    logged: /^Logged: (.+)$/m.exec(run.stdout)![1]!,
  };
}

async function verdictOf(page: Page, url: string): Promise<{ state: string; text: string }> {
  await page.goto(url);
  const verdict = page.locator('[data-verdict="found"], [data-verdict="not-found"]');
  await verdict.waitFor({ timeout: 10_000 });
  return { state: (await verdict.getAttribute('data-verdict'))!, text: (await verdict.textContent())! };
}

describe('the receipt page', () => {
  it("finds a printed receipt's job, saying when it was logged, its entry, week, service and area", async () => {
    const job = jobs.find((j) => j.id === 'J-1001')!;
    const receipt = await printReceipt(job.id);
    expect(receipt.address).toBe(`${PUBLIC}/log/job/?code=${receipt.code}`);
    const entry = Number(/^entry (\d+) of the review log/.exec(receipt.logged)?.[1]);
    expect(Number.isInteger(entry)).toBe(true);
    const page = await browser.newPage();
    const { state, text } = await verdictOf(page, `${sidecar.url}/log/job/?code=${receipt.code}`);
    expect(state).toBe('found');
    expect(job).toMatchObject({ completed: '2023-03-03', service: 'drain-cleaning', area: 'Oak Ridge' });
    expect(text).toBe(`This job was logged on March 3, 2023, entry ${entry} of the public log of Riverbend Home Services: Drain Cleaning, completed in week 9 of 2023, in Oak Ridge.`);
    expect(await page.locator('[data-check-details]').textContent()).toContain('the receipt of a job completed on March 3, 2023');
    expect(await page.locator('#receipt-code').inputValue()).toBe(receipt.code);
    // Every byte the page loaded (the page, its script and style, one look-up file): a phone's worth.
    const bytes = await page.evaluate(() =>
      [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].reduce((n, e) => n + (e as PerformanceResourceTiming).encodedBodySize, 0),
    );
    console.log(`receipt page: ${bytes} bytes loaded`);
    expect(bytes).toBeLessThan(20_000);
    await page.close();
  });

  it('finds a job typed into the form from /log/, the way a customer comes to it', async () => {
    const job = jobs.find((j) => j.area === undefined)!;
    const { code } = await printReceipt(job.id);
    const page = await browser.newPage();
    await page.goto(`${sidecar.url}/log/`);
    await page.locator('a', { hasText: 'Find your job in the log' }).click();
    await page.locator('#receipt-code').fill(code.toLowerCase());
    await page.locator('button', { hasText: 'Find it' }).click();
    const { state, text } = await verdictOf(page, page.url());
    expect(state).toBe('found');
    expect(text).toMatch(/completed in week \d+ of \d{4}\.$/);
    await page.close();
  });

  it('says a mistyped code is mistyped, not-found', async () => {
    const { code } = await printReceipt('J-1001');
    const typo = `${code.slice(0, 2)}${code[2] === '7' ? '8' : '7'}${code.slice(3)}`;
    const page = await browser.newPage();
    const { state, text } = await verdictOf(page, `${sidecar.url}/log/job/?code=${typo}`);
    expect(state).toBe('not-found');
    expect(text).toContain('This code is mistyped');
    await page.close();
  });

  it('does not find a well-formed code of no job', async () => {
    const page = await browser.newPage();
    const { state, text } = await verdictOf(page, `${sidecar.url}/log/job/?code=0000-0000-0000-0000-0`);
    expect(state).toBe('not-found');
    expect(text).toContain('No job with this receipt code is in the public log of Riverbend Home Services.');
    await page.close();
  });
});

describe('the build', () => {
  it("serves a receipt's look-up file as JSON, from its manifest, and a missing one as 404", async () => {
    const parsed = parseReceiptCode((await printReceipt('J-1001')).code);
    if (!parsed.ok) throw new Error(parsed.reason);
    const shard = `/log/jobs/${jobShardOf(jobLocator(parsed.secret, sha256))}.json`;
    expect(manifest.files[shard]).toBeDefined();
    const response = await fetch(`${sidecar.url}${shard}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
    expect(Object.keys(await response.json()).every((locator) => shard.endsWith(`/${locator.slice(0, 2)}.json`))).toBe(true);
    expect((await fetch(`${sidecar.url}/log/jobs/zz.json`)).status).toBe(404);
    // One block for every shard in `_headers`, for a static host, as for the review proofs.
    const hostHeaders = await readFile(path.join(distDir, '_headers'), 'utf8');
    expect(hostHeaders).toContain('/log/jobs/*\n  Content-Type: application/json; charset=utf-8\n  Cache-Control: public, max-age=60, stale-while-revalidate=300');
    expect(hostHeaders).not.toMatch(/^\/log\/jobs\/[0-9a-f]{2}\.json$/m);
  });

  it("holds no job id, customer's name or invoice total of the owner's jobs, in any file", async () => {
    const root = await realpath(distDir);
    const files = (await readdir(root, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => path.join(d.parentPath, d.name));
    expect(files.some((f) => path.relative(root, f).startsWith('log/jobs/'))).toBe(true);
    const ids = new Set(jobs.map((j) => j.id));
    const customers = [...new Set(jobs.map((j) => j.customer))];
    // An amount the reviews' own words name is public whatever a job's total: a customer wrote "$475".
    const reviewFiles = await readdir(path.join(DEMO_CONTENT, 'reviews'));
    const reviewText = (await Promise.all(reviewFiles.map((f) => readFile(path.join(DEMO_CONTENT, 'reviews', f), 'utf8')))).join('\n');
    const wordsAmounts = new Set([...reviewText.matchAll(/\$\s?(\d[\d,]*)/g)].map((m) => m[1]!.replaceAll(',', '')));
    const totals = new Set(jobs.map((j) => String(j.total)).filter((t) => !wordsAmounts.has(t)));
    expect(totals.size).toBeGreaterThan(jobs.length / 2);
    const found: string[] = [];
    for (const file of files) {
      // The precompressed variants hold the same bytes as the file beside them.
      if (/\.(br|gz)$/.test(file)) continue;
      const text = (await readFile(file)).toString('latin1');
      const rel = path.relative(root, file);
      for (const [id] of text.matchAll(/(?<![\w-])J-\d+/g)) if (ids.has(id)) found.push(`${rel}: ${id}`);
      for (const name of customers) if (text.includes(name)) found.push(`${rel}: ${name}`);
      // A total as a total would be written: a "total" member, or an amount of money.
      for (const [, member, money] of text.matchAll(/"total"\s*:\s*(\d+)|\$\s?(\d{1,3}(?:,?\d{3})*)/g)) {
        const total = (member ?? money)!.replaceAll(',', '');
        if (totals.has(total)) found.push(`${rel}: total ${total}`);
      }
      if (/"customer"/.test(text)) found.push(`${rel}: a "customer" member`);
    }
    expect(files.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});
