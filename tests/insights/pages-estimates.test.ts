/**
 * The pages show corrected counts honestly (issue 44 item 3): on the built demo site, each aspect row
 * says "about N reviews (low–high)" from /insights.json with a note on the analyser's accuracy for that
 * aspect, technician and service profiles use the estimates, and every note links to the About page's
 * "How the figures are made", which lists the measured accuracy per aspect.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Insights } from '../../core/schemas/insights.ts';
import { formatCount } from '../../core/text/text-rules.ts';
import { buildTestSite, DEMO_CONTENT } from '../helpers/site-build.ts';

let dist: string;
let insights: Insights;
const read = (file: string) => readFile(path.join(dist, file), 'utf8');
/** Text as a reader sees it: tags dropped, entities of this site's output decoded, white space folded. */
const textOf = (html: string) =>
  html.replace(/<[^>]+>/g, ' ').replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"').replace(/\s+/g, ' ');

beforeAll(async () => {
  ({ distDir: dist } = await buildTestSite({ contentDir: DEMO_CONTENT }));
  insights = JSON.parse(await read('insights.json')) as Insights;
}, 600_000);

describe('the home page aspect rows', () => {
  it('say "about N reviews (low–high)" for every aspect, with the shares of the estimates', async () => {
    const text = textOf(await read('index.html'));
    for (const a of insights.aspects.filter((x) => x.mentions > 0)) {
      const { mentions, negative } = a.estimate!;
      const neg = Math.round((100 * negative.value) / mentions.value);
      expect(text, a.id).toContain(`${neg}% negative of about ${mentions.value} reviews (${mentions.low}–${mentions.high})`);
    }
  });

  it('note for each aspect how often the analyser finds and wrongly flags it, linked to how the figures are made', async () => {
    const html = await read('index.html');
    const text = textOf(html);
    const punctuality = insights.aspects.find((a) => a.id === 'punctuality')!;
    const { recall, false_alarm_rate, n } = punctuality.accuracy!.detection;
    expect(text).toContain(
      `the analyser finds ${Math.round(recall! * 100)}% of the reviews that judge punctuality and wrongly flags ${Math.round(false_alarm_rate! * 100)}% of the others (measured on ${formatCount(n)} hand-labelled reviews)`,
    );
    expect(text).toContain(`It found ${punctuality.mentions} reviews: ${punctuality.positive} positive, ${punctuality.negative} negative.`);
    expect(html).toContain('href="/about/#figures"');
  });
});

describe('technician and service profiles', () => {
  it('show "about" counts with their range where a profile has 20 reviews or more', async () => {
    const technician = insights.entities.technicians.find((t) => t.reviews >= 20)!;
    const files = (await readdir(path.join(dist, 'technicians'), { recursive: true })).filter((f) => f.endsWith('index.html'));
    const pages = await Promise.all(files.map((f) => read(path.join('technicians', f))));
    const heading = (html: string) => textOf(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '');
    const html = pages.find((p) => heading(p).includes(technician.name) && p.includes('id="profile-title"'))!;
    const text = textOf(html);
    const first = technician.aspects.slice().sort((a, b) => b.mentions - a.mentions)[0]!;
    expect(text).toContain(`(about ${first.estimate!.mentions.value}, ${first.estimate!.mentions.low}–${first.estimate!.mentions.high})`);
    expect(text).toContain('How the figures are made');
  });
});

describe('the About page', () => {
  it('explains the corrected counts and lists the measured accuracy of every aspect', async () => {
    const text = textOf(await read('about/index.html'));
    expect(text).toContain('How the figures are made');
    expect(text).toContain('“about 48 reviews (40–57)”');
    for (const a of insights.aspects) {
      const { detection, polarity } = a.accuracy!;
      const pct = (x: number | null) => `${Math.round(x! * 100)}%`;
      expect(text, a.id).toContain(`${a.label} ${pct(detection.recall)} ${pct(detection.false_alarm_rate)} ${pct(polarity.accuracy)}`);
    }
  });
});
