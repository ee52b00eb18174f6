/**
 * `npm run screenshots`: the README's pictures, taken again from the demo content. It builds the demo
 * content, serves it with the real sidecar, and photographs in the tests' Chromium
 * (tools/lib/browser.ts): the home page and a technician page on a phone and on a desktop, and the
 * widget as an owner would embed it, on a page of another origin, in both themes. Writes
 * docs/screenshots/*.png.
 *
 * The bundled Chromium ships only Open Sans, which has no ★: the DejaVu fonts of the
 * `dejavu-fonts-ttf` package (also used for the share image) are added for the pictures.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseConfig } from '../core/config.ts';
import type { ReviewsDataset } from '../core/schemas/published.ts';
import { assignTechnicianSlugs, PATHS, technicianPath } from '../core/urls.ts';
import { startSidecar } from '../sidecar/server.ts';
import { findChromium, launchBrowser } from './lib/browser.ts';
import { buildSite } from '../scripts/build.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'docs', 'screenshots');

const work = await mkdtemp(path.join(tmpdir(), 'screenshots-'));
const distDir = path.join(work, 'dist');
const built = await buildSite({ contentDir: path.join(ROOT, 'examples/demo'), publicUrl: 'https://reviews.example.com', outDir: distDir });
if (!built.ok) throw new Error(built.message);
const dataset = JSON.parse(await readFile(path.join(distDir, 'reviews.json'), 'utf8')) as ReviewsDataset;

const parsed = parseConfig({ PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'https://reviews.example.com', DIST_DIR: distDir, DATA_DIR: path.join(work, 'data'), LOG_LEVEL: 'silent' });
if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
const sidecar = await startSidecar(parsed.config);

// The owner's own site, on another origin, with the two lines the README gives.
const host = createServer((req, res) => {
  const theme = new URL(req.url ?? '/', 'http://host').searchParams.get('theme') ?? 'light';
  const background = theme === 'dark' ? '#0e1116' : '#f6f4ef';
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Our company</title>
<style>body{margin:0;padding:24px;background:${background};font-family:'DejaVu Sans',sans-serif}</style></head><body>
<script src="${sidecar.url}${PATHS.widget}" async></script>
<reviews-widget count="2" sort="best" theme="${theme}"></reviews-widget></body></html>`);
});
await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
const hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;

const chromium = await findChromium();
const fontsConf = path.join(work, 'fonts.conf');
const bundledFonts = chromium.env.FONTCONFIG_FILE ? path.join(path.dirname(chromium.env.FONTCONFIG_FILE), 'fonts', 'fonts') : '/usr/share/fonts';
await writeFile(
  fontsConf,
  `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${bundledFonts}</dir>\n` +
    `  <dir>${path.join(ROOT, 'node_modules', 'dejavu-fonts-ttf', 'ttf')}</dir>\n  <cachedir>${path.join(work, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
);
const browser = await launchBrowser({ env: { FONTCONFIG_FILE: fontsConf } });
const technician = dataset.business.technicians[0]!.name;
const technicianUrl = technicianPath(assignTechnicianSlugs([technician]).get(technician)!);

const shots: { file: string; url: string; width: number; height: number; mobile?: boolean; dark?: boolean; selector?: string }[] = [
  { file: 'home-desktop.png', url: `${sidecar.url}/`, width: 1280, height: 1100 },
  { file: 'home-phone.png', url: `${sidecar.url}/`, width: 390, height: 844, mobile: true },
  { file: 'technician-desktop.png', url: `${sidecar.url}${technicianUrl}`, width: 1280, height: 1100 },
  { file: 'search-phone-dark.png', url: `${sidecar.url}${PATHS.searchPage}?mentions_technician=${encodeURIComponent(technician)}&sort=highest`, width: 390, height: 844, mobile: true, dark: true },
  { file: 'widget-light.png', url: `${hostUrl}/?theme=light`, width: 560, height: 560, selector: 'reviews-widget' },
  { file: 'widget-dark.png', url: `${hostUrl}/?theme=dark`, width: 560, height: 560, selector: 'reviews-widget' },
];

await mkdir(OUT, { recursive: true });
try {
  for (const shot of shots) {
    const context = await browser.newContext({
      viewport: { width: shot.width, height: shot.height },
      deviceScaleFactor: shot.mobile ? 2 : 1,
      isMobile: shot.mobile ?? false,
      colorScheme: shot.dark ? 'dark' : 'light',
    });
    const page = await context.newPage();
    await page.goto(shot.url, { waitUntil: 'networkidle' });
    const target = path.join(OUT, shot.file);
    if (shot.selector) {
      await page.locator(`${shot.selector} >> .score`).waitFor();
      await page.locator(shot.selector).screenshot({ path: target });
    } else {
      await page.screenshot({ path: target });
    }
    console.log(`wrote ${path.relative(ROOT, target)}`);
    await context.close();
  }
} finally {
  await browser.close();
  host.close();
  await sidecar.close();
  await rm(work, { recursive: true, force: true });
}
