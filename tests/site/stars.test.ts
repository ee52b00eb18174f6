/** drawStarRow: the one drawing of an average as stars (the pages' star graphic, the share image). */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../core/i18n/translator.ts';
import { formatStars } from '../../core/pages/format.ts';
import { drawShareImage } from '../../site/lib/images.ts';
import { drawStarRow, STAR_PATH } from '../../site/lib/stars.ts';

describe('drawStarRow', () => {
  it.each([
    [4.36, '108.0'],
    [4.24, '96.0'],
    [1, '24.0'],
  ])('fills %d to the half star', (value, width) => {
    const svg = drawStarRow({ value, size: 24, clipId: 'c', off: 'class="off"', on: 'class="on"' });
    expect(svg).toContain(`<rect width="${width}" height="24"></rect>`);
    expect(svg.split(STAR_PATH).length - 1).toBe(10);
    expect(svg).toContain('<g class="on" clip-path="url(#c)">');
  });

  it('places and scales the row for the share image', () => {
    const svg = drawShareImage(
      { name: 'Brightline', address: { locality: 'Austin', region: 'TX' } } as Parameters<typeof drawShareImage>[0],
      { rating_value: 4.5, review_count: 10 } as Parameters<typeof drawShareImage>[1],
    );
    expect(svg).toContain('<rect x="370" y="268" width="432.0" height="96"></rect>');
    expect(svg).toContain('transform="translate(754 268) scale(4)"');
  });
});

describe("the widget's stars", () => {
  it('are the functions the pages use, written into /widget.js at build time (no star rule of its own)', async () => {
    const widget = await readFile(new URL('../../site/widget/widget.js', import.meta.url), 'utf8');
    expect(widget).toContain('/* formatStars */');
    expect(widget).toContain('/* roundStars */');
    expect(widget).not.toMatch(/['"]★['"]|repeat\(/);
    const { renderWidgetScript } = await import('../../site/lib/widget-script.ts');
    const served = renderWidgetScript(createTranslator());
    expect(served).toContain(`const formatStars = ${formatStars.toString()};`);
    expect(served).not.toContain('/* formatStars */');
  });
});
