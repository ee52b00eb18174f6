/**
 * The build with customers' photos (issue 22 item 6): 10,000 reviews, 2,000 of them with a photo
 * (BENCH_PHOTOS to change the count), each a distinct 1024×768 JPEG drawn with sharp. Measures the first
 * build (every photo encoded: 3 widths × WebP and JPEG), then an unchanged rebuild (every photo from the
 * cache), with the time the photos add to the build (the copy runs beside Astro) and the peak memory.
 * Target: an unchanged rebuild spends under a second on photos.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { buildSite } from '../../scripts/build.ts';
import { createConcurrencyLimiter } from '../../core/concurrency-limiter.ts';
import { ensureBenchContent } from './bench-content.ts';
import type { BenchRow } from './types.ts';

const REVIEWS = 10_000;
const PHOTOS = Number(process.env.BENCH_PHOTOS ?? 2_000);

/** A distinct picture per index: a gradient, a few blocks and the index, like a photo's broad areas and edges. */
function drawPhoto(i: number): string {
  const hue = (i * 47) % 360;
  const blocks = Array.from({ length: 6 }, (_, k) => {
    const x = (i * 131 + k * 173) % 900;
    const y = (i * 71 + k * 97) % 640;
    return `<rect x="${x}" y="${y}" width="${80 + ((i + k) % 5) * 30}" height="${60 + ((i * k) % 4) * 25}" fill="hsl(${(hue + k * 50) % 360},45%,${35 + k * 6}%)"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="768"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},30%,80%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},35%,35%)"/></linearGradient></defs><rect width="1024" height="768" fill="url(#g)"/>${blocks}<text x="40" y="720" font-size="64" fill="#fff">#${i}</text></svg>`;
}

/** The 10k bench content with PHOTOS reviews given a photo each (every n-th review), made once. */
async function ensurePhotoContent(): Promise<string> {
  const dir = path.join(path.dirname(await ensureBenchContent(REVIEWS)), `${REVIEWS}-photos-${PHOTOS}`);
  if (existsSync(path.join(dir, 'business.json'))) return dir;
  const staging = `${dir}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await cp(await ensureBenchContent(REVIEWS), staging, { recursive: true });
  const every = Math.max(1, Math.floor(REVIEWS / PHOTOS));
  let index = 0;
  const limiter = createConcurrencyLimiter({ overall: 2, perKey: 2 });
  const writes: Promise<unknown>[] = [];
  for (const name of (await readdir(path.join(staging, 'reviews'))).sort()) {
    const file = path.join(staging, 'reviews', name);
    const reviews = JSON.parse(await readFile(file, 'utf8')) as { id: string; media?: unknown[] }[];
    for (const review of reviews) {
      if (index++ % every !== 0 || writes.length >= PHOTOS) continue;
      const photo = `media/${review.id}/photo.jpg`;
      review.media = [{ file: photo, alt: `Photo ${writes.length + 1}` }];
      const n = writes.length;
      writes.push(
        limiter.run('draw', async () => {
          await mkdir(path.join(staging, path.dirname(photo)), { recursive: true });
          await sharp(Buffer.from(drawPhoto(n))).jpeg({ quality: 85 }).toFile(path.join(staging, photo));
        }),
      );
    }
    await writeFile(file, `${JSON.stringify(reviews, null, 2)}\n`);
  }
  await Promise.all(writes);
  await rm(dir, { recursive: true, force: true });
  await cp(staging, dir, { recursive: true });
  await rm(staging, { recursive: true, force: true });
  return dir;
}

export async function run(): Promise<BenchRow[]> {
  const contentDir = await ensurePhotoContent();
  const mediaCacheDir = await mkdtemp(path.join(tmpdir(), 'bench-media-cache-'));
  const rows: BenchRow[] = [];
  const label = `build ${REVIEWS / 1000}k reviews, ${PHOTOS} photos`;
  for (const pass of ['first build', 'unchanged rebuild'] as const) {
    const work = await mkdtemp(path.join(tmpdir(), 'bench-photos-'));
    const result = await buildSite({ contentDir, publicUrl: 'https://reviews.example.com', outDir: path.join(work, 'dist'), mediaCacheDir });
    if (!result.ok) throw new Error(result.message);
    const photoSeconds = result.photos.ms / 1000;
    rows.push({ name: `${label}, ${pass}: wall time`, value: result.ms / 1000, unit: 's' });
    rows.push({
      name: `${label}, ${pass}: time on photos (${result.photos.encoded} encoded, ${result.photos.cached} from cache)`,
      value: photoSeconds,
      unit: 's',
      ...(pass === 'unchanged rebuild' ? { target: '< 1', ok: photoSeconds < 1 } : {}),
    });
    rows.push({ name: `${label}, ${pass}: peak memory (astro process)`, value: result.maxRssBytes / 2 ** 20, unit: 'MB' });
    const media = Object.entries(result.manifest.files).filter(([p]) => p.startsWith('/media/'));
    rows.push({ name: `${label}, ${pass}: photo files / bytes`, value: media.length, unit: `files, ${(media.reduce((s, [, f]) => s + f.size, 0) / 2 ** 20).toFixed(1)} MB` });
    await rm(work, { recursive: true, force: true });
  }
  rows.push({ name: `${label}: peak memory (build process, both builds)`, value: (process.resourceUsage().maxRSS * 1024) / 2 ** 20, unit: 'MB' });
  await rm(mediaCacheDir, { recursive: true, force: true });
  return rows;
}

if (import.meta.main) console.table(await run());
