/**
 * Lighthouse (mobile, its default configuration: a mid-range phone on a throttled 4G connection,
 * simulated) on four pages of the demo content served by the real sidecar: `/`, the newest month, the
 * first technician and the search page. Target: at least 95 in each of the four categories.
 *
 * The browser is the one the tests use (tools/lib/browser.ts), started by chrome-launcher so that
 * Lighthouse can drive it over its debugging port. The build's PUBLIC_URL is the sidecar's own
 * address, so canonical links and feeds point where Lighthouse looks.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import type { ReviewsDataset } from '../../core/schemas/published.ts';
import { archivePath, assignTechnicianSlugs, PATHS, technicianPath } from '../../core/urls.ts';
import { findChromium } from '../lib/browser.ts';
import { buildSite } from '../../scripts/build.ts';
import { startSidecarProcess } from './serve-child.ts';
import type { BenchRow } from './types.ts';
import { findFreePort } from '../lib/free-port.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const TARGET = 95;

export async function run(): Promise<BenchRow[]> {
  const work = await mkdtemp(path.join(tmpdir(), 'bench-lighthouse-'));
  const port = await findFreePort();
  const base = `http://127.0.0.1:${port}`;
  const distDir = path.join(work, 'dist');
  const built = await buildSite({ contentDir: path.join(ROOT, 'examples/demo'), publicUrl: base, outDir: distDir });
  if (!built.ok) throw new Error(built.message);
  const dataset = JSON.parse(await readFile(path.join(distDir, 'reviews.json'), 'utf8')) as ReviewsDataset;
  const technician = dataset.business.technicians[0]!.name;
  const pages: [string, string][] = [
    ['/', PATHS.home],
    ['month page', archivePath(dataset.reviews[0]!.date.slice(0, 7))],
    ['technician page', technicianPath(assignTechnicianSlugs([technician]).get(technician)!)],
    ['search page', PATHS.searchPage],
  ];

  const sidecar = await startSidecarProcess({ DIST_DIR: distDir, DATA_DIR: path.join(work, 'data'), PORT: String(port), PUBLIC_URL: base });
  const install = await findChromium();
  const chrome = await chromeLauncher.launch({
    chromePath: install.executablePath,
    chromeFlags: ['--headless=new', '--no-sandbox', ...install.args],
    envVars: { ...process.env, ...install.env } as Record<string, string>,
    logLevel: 'silent',
  });
  const rows: BenchRow[] = [];
  try {
    for (const [name, urlPath] of pages) {
      const result = await lighthouse(`${sidecar.url}${urlPath}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
      if (!result) throw new Error(`Lighthouse gave no result for ${urlPath}`);
      const { categories, audits } = result.lhr;
      for (const category of CATEGORIES) {
        const score = Math.round((categories[category]?.score ?? 0) * 100);
        rows.push({ name: `Lighthouse mobile ${name} (${urlPath}): ${category}`, value: score, unit: 'score', target: `>= ${TARGET}`, ok: score >= TARGET });
        if (score < TARGET) {
          const failing = Object.values(audits).filter((a) => a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative');
          console.error(`  ${name} ${category} ${score}: ${failing.map((a) => `${a.id} (${a.displayValue ?? a.score})`).join(', ')}`);
        }
      }
      const lcp = audits['largest-contentful-paint']?.numericValue;
      if (lcp !== undefined) rows.push({ name: `Lighthouse mobile ${name}: largest contentful paint`, value: Math.round(lcp), unit: 'ms' });
    }
  } finally {
    await chrome.kill();
    await sidecar.stop();
    await rm(work, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) console.table(await run());
