/**
 * The share image (Open Graph, 1200×630), the favicon and the touch icon, drawn as SVG and rendered
 * to PNG at build time with resvg. Text uses the DejaVu fonts from the `dejavu-fonts-ttf` package and
 * never the system's, so every machine renders the same pixels, and a fresh machine without fonts
 * renders text at all.
 */
import { createRequire } from 'node:module';
import { Resvg } from '@resvg/resvg-js';
import type { AggregateRating, PublishedBusiness } from '../../core/schemas/published.ts';
import { drawStarRow, STAR_PATH } from './stars.ts';
import { createTranslator, type Translator } from '../../core/i18n/translator.ts';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function drawShareImage(business: PublishedBusiness, aggregate: AggregateRating, t: Translator = createTranslator()): string {
  // DejaVu Sans Bold averages about 0.64 em per character: shrink long names to fit 1040 px.
  const nameSize = Math.min(76, Math.floor(1040 / (0.64 * Math.max(1, business.name.length))));
  const where = `${business.address.locality}, ${business.address.region}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<rect width="1200" height="630" fill="#14171b"/>
<rect x="0" y="0" width="1200" height="12" fill="#f4b740"/>
<text x="80" y="170" font-family="DejaVu Sans" font-weight="bold" font-size="${nameSize}" fill="#ffffff">${escapeXml(business.name)}</text>
<text x="80" y="385" font-family="DejaVu Sans" font-weight="bold" font-size="150" fill="#ffffff">${t.ratingShort(aggregate.rating_value)}</text>
${drawStarRow({ value: aggregate.rating_value, x: 370, y: 268, size: 96, clipId: 'f', off: 'fill="#4a525c"', on: 'fill="#f4b740"' })}
<text x="375" y="412" font-family="DejaVu Sans" font-size="44" fill="#e8eaed">${escapeXml(t.fill(t.m.home.outOf5, { count: t.count(aggregate.review_count) }))}</text>
<text x="80" y="540" font-family="DejaVu Sans" font-size="34" fill="#b0b7c0">${escapeXml(`${where} · ${t.m.share.tagline}`)}</text>
</svg>`;
}

/** The site icon: a gold star on a dark rounded square; also served as /favicon.svg. */
export function drawIcon(): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#14171b"/><path d="${STAR_PATH}" fill="#f4b740" transform="translate(6 5) scale(2.17)"/></svg>`;
}

function fontFiles(): string[] {
  const require = createRequire(import.meta.url);
  return ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'].map((file) => require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
}

export function renderPng(svg: string, width: number): Buffer {
  const resvg = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    font: { loadSystemFonts: false, fontFiles: fontFiles(), defaultFontFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}

/** An ICO file holding one PNG image (Windows Vista and later, and every browser, read PNG in ICO). */
export function wrapPngInIco(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size >= 256 ? 0 : size, 6);
  header.writeUInt8(size >= 256 ? 0 : size, 7);
  header.writeUInt8(0, 8); // no palette
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18); // offset of the image
  return Buffer.concat([header, png]);
}
