/**
 * The browser check of a review (/log/check/?review=<id>, issue 40 item 6) on a site of 10,000 reviews,
 * served by the real sidecar, in the Chromium the tests use at 4× CPU slowdown (a phone-class CPU): the
 * time from the navigation's start to the verdict, as the page itself marks it (`log-check-verdict`,
 * site/lib/log-check.ts), in RUNS fresh pages, and every byte the page loaded (target: within 2 s, under
 * 100 KB). The review checked is the oldest, whose proof is among the longest of the log.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSite } from '../../scripts/build.ts';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import { logCheckPath } from '../../core/urls.ts';
import { launchBrowser } from '../lib/browser.ts';
import { ensureBenchContent } from './bench-content.ts';
import { startSidecarProcess } from './serve-child.ts';
import type { BenchRow } from './types.ts';

const REVIEWS = 10_000;
const RUNS = 5;
const PUBLIC_URL = 'https://reviews.example.com';

export async function run(): Promise<BenchRow[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-check-page-'));
  const distDir = path.join(work, 'dist');
  try {
    const built = await buildSite({ contentDir: await ensureBenchContent(REVIEWS), publicUrl: PUBLIC_URL, outDir: distDir, dataDir: path.join(work, 'data') });
    if (!built.ok) throw new Error(built.message);
    const { reviews } = JSON.parse(await readFile(path.join(distDir, 'reviews.json'), 'utf8')) as ReviewsDataset;
    const sidecar = await startSidecarProcess({ PUBLIC_URL, DIST_DIR: distDir, DATA_DIR: path.join(work, 'data') });
    const browser = await launchBrowser();
    try {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const page = await browser.newPage();
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
        await page.goto(`${sidecar.url}${logCheckPath(reviews.at(-1)!.id)}`);
        const verdict = page.locator('[data-verdict="verified"], [data-verdict="failed"]');
        await verdict.waitFor({ timeout: 30_000 });
        if ((await verdict.getAttribute('data-verdict')) !== 'verified') throw new Error(`the check failed: ${await verdict.textContent()}`);
        times.push(await page.evaluate(() => performance.getEntriesByName('log-check-verdict')[0]!.startTime));
        bytes = await page.evaluate(() =>
          [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].reduce((n, e) => n + (e as PerformanceResourceTiming).encodedBodySize, 0),
        );
        await page.close();
      }
      const slowest = Math.max(...times);
      return [
        { name: `check page, ${REVIEWS / 1000}k reviews, 4× CPU slowdown: navigation to verdict, slowest of ${RUNS}`, value: slowest, unit: `ms (${times.map((t) => Math.round(t)).join(', ')})`, target: '< 2000', ok: slowest < 2_000 },
        { name: 'check page: bytes loaded (page, script, style, proof, key, policy)', value: bytes, unit: 'bytes (as served, compressed)', target: '< 100000', ok: bytes < 100_000 },
      ];
    } finally {
      await browser.close();
      await sidecar.stop();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
