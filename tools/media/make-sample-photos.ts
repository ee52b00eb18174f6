/**
 * Draws the small sample photos of the demo (examples/demo/media/) and of the test fixture
 * (tests/fixtures/content-small/media/) with sharp, so the repository carries no photo of anyone's
 * home. The fixture's `r-0001/furnace.jpg` is written like a phone photo: sideways pixels with EXIF
 * orientation 6 (rotate 90° to show), and a GPS location, camera make and model, which the build
 * must strip. `npm exec -- node tools/media/make-sample-photos.ts` writes them again; the output is
 * the same bytes every time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

const ROOT = path.resolve(import.meta.dirname, '../..');

type Scene = { file: string; width: number; height: number; svg: string; phone?: boolean };

function frame(width: number, height: number, body: string, wall = '#e8e1d5', floor = '#9c8a73'): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
<defs><linearGradient id="light" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#fff" stop-opacity=".35"/><stop offset="1" stop-color="#000" stop-opacity=".2"/></linearGradient></defs>
<rect width="${width}" height="${height}" fill="${wall}"/><rect y="${height * 0.72}" width="${width}" height="${height * 0.28}" fill="${floor}"/>
${body}<rect width="${width}" height="${height}" fill="url(#light)"/></svg>`;
}

const waterHeater = (w: number, h: number) =>
  frame(w, h, `<rect x="${w * 0.38}" y="${h * 0.12}" width="${w * 0.24}" height="${h * 0.7}" rx="${w * 0.05}" fill="#cfd6dc" stroke="#7b8791" stroke-width="4"/>
<rect x="${w * 0.47}" y="${h * 0.02}" width="${w * 0.02}" height="${h * 0.11}" fill="#b87333"/><rect x="${w * 0.53}" y="${h * 0.02}" width="${w * 0.02}" height="${h * 0.11}" fill="#3a6fb0"/>
<rect x="${w * 0.45}" y="${h * 0.6}" width="${w * 0.1}" height="${h * 0.06}" fill="#333"/><circle cx="${w * 0.5}" cy="${h * 0.63}" r="${h * 0.015}" fill="#e33"/>`);

const furnace = (w: number, h: number) =>
  frame(w, h, `<rect x="${w * 0.3}" y="${h * 0.15}" width="${w * 0.4}" height="${h * 0.62}" fill="#dfe3e6" stroke="#555" stroke-width="5"/>
${[0, 1, 2, 3, 4, 5].map((i) => `<rect x="${w * 0.36}" y="${h * (0.22 + i * 0.035)}" width="${w * 0.28}" height="${h * 0.012}" fill="#666"/>`).join('')}
<rect x="${w * 0.42}" y="${h * 0.05}" width="${w * 0.16}" height="${h * 0.1}" fill="#a9b0b5"/><text x="${w * 0.5}" y="${h * 0.6}" font-size="${h * 0.06}" text-anchor="middle" fill="#225">96%</text>`, '#d8d2c4', '#6f6a63');

const acUnit = (w: number, h: number) =>
  frame(w, h, `<rect x="${w * 0.25}" y="${h * 0.3}" width="${w * 0.5}" height="${h * 0.45}" rx="8" fill="#f2f2ee" stroke="#888" stroke-width="4"/>
<circle cx="${w * 0.5}" cy="${h * 0.52}" r="${h * 0.17}" fill="#555"/><circle cx="${w * 0.5}" cy="${h * 0.52}" r="${h * 0.05}" fill="#ddd"/>
${[0, 1, 2, 3].map((i) => `<line x1="${w * 0.5}" y1="${h * 0.52}" x2="${w * 0.5 + Math.cos(i * 1.57) * h * 0.15}" y2="${h * 0.52 + Math.sin(i * 1.57) * h * 0.15}" stroke="#999" stroke-width="10"/>`).join('')}`, '#9ccbe8', '#5d8a4a');

const thermostat = (w: number, h: number) =>
  frame(w, h, `<circle cx="${w * 0.5}" cy="${h * 0.45}" r="${h * 0.25}" fill="#222" stroke="#aaa" stroke-width="8"/>
<text x="${w * 0.5}" y="${h * 0.5}" font-size="${h * 0.16}" text-anchor="middle" fill="#f90" font-family="sans-serif">68</text>`, '#efe9dc');

const leak = (w: number, h: number) =>
  frame(w, h, `<ellipse cx="${w * 0.5}" cy="${h * 0.85}" rx="${w * 0.35}" ry="${h * 0.07}" fill="#6fa3c9" opacity=".8"/>
<rect x="${w * 0.1}" y="${h * 0.2}" width="${w * 0.8}" height="${h * 0.05}" fill="#8a8f94"/><circle cx="${w * 0.6}" cy="${h * 0.35}" r="${h * 0.02}" fill="#6fa3c9"/>`, '#cfc8bb', '#7b7367');

const SCENES: Scene[] = [
  // The fixture: the phone photo, a landscape one, and a video poster.
  { file: 'tests/fixtures/content-small/media/r-0001/furnace.jpg', width: 960, height: 720, svg: furnace(960, 720), phone: true },
  { file: 'tests/fixtures/content-small/media/r-0003/water-heater.jpg', width: 480, height: 640, svg: waterHeater(480, 640) },
  { file: 'tests/fixtures/content-small/media/r-0006/poster.png', width: 400, height: 300, svg: acUnit(400, 300) },
  // The demo.
  { file: 'examples/demo/media/r-2026-11-0001/filter.jpg', width: 1024, height: 768, svg: furnace(1024, 768) },
  { file: 'examples/demo/media/r-2026-10-0002/condenser.jpg', width: 1024, height: 768, svg: acUnit(1024, 768) },
  { file: 'examples/demo/media/r-2026-10-0002/thermostat.jpg', width: 600, height: 600, svg: thermostat(600, 600) },
  { file: 'examples/demo/media/r-2026-10-0010/under-the-sink.jpg', width: 800, height: 600, svg: leak(800, 600) },
  { file: 'examples/demo/media/r-2026-10-0005/water-heater.jpg', width: 600, height: 800, svg: waterHeater(600, 800) },
];

for (const scene of SCENES) {
  let image = sharp(Buffer.from(scene.svg));
  if (scene.phone) {
    // Store the pixels as a phone does when held upright: turned, with orientation 6 saying how to turn them back.
    image = sharp(await image.rotate(-90).png().toBuffer())
      .withMetadata({ orientation: 6 })
      .withExifMerge({
        IFD0: { Make: 'ExampleCam', Model: 'Pocket 12' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 4630/100', GPSLongitudeRef: 'W', GPSLongitude: '79/1 58/1 5600/100' },
      });
  }
  const bytes = scene.file.endsWith('.png') ? await image.png().toBuffer() : await image.jpeg({ quality: 82 }).toBuffer();
  const target = path.join(ROOT, scene.file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, bytes);
  console.log(`${scene.file}: ${bytes.length} bytes`);
}
