/** `npm run init` as a new owner runs it: flags in, a content folder the build accepts out, nothing written on a problem. */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { runScript } from '../helpers/run-script.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const FLAGS = [
  '--name', 'Acme Plumbing',
  '--website', 'https://acme.example',
  '--telephone', '+1-555-0100',
  '--street', '1 Main St',
  '--city', 'Springfield',
  '--region', 'IL',
  '--postal-code', '62701',
  '--country', 'US',
  '--service', 'Drain Cleaning=drain,clogged drain',
  '--service', 'water-heater:Water Heaters',
  '--service', 'Calefacción',
  '--technician', 'Dana Smith=Dana,D.S.',
  '--area', 'Springfield',
  '--area', 'Chatham',
];

const LANGUAGE = "The site's language, en or es (empty line for en)";

const init = (contentDir: string, args: string[]) =>
  runScript(process.execPath, ['scripts/init.ts', ...args], { cwd: ROOT, env: { ...process.env, CONTENT_DIR: contentDir } });
const newFolder = async () => path.join(await mkdtemp(path.join(tmpdir(), 'init-')), 'content');

/**
 * Runs init on a real terminal: util-linux `script` gives it a pseudo-terminal, so stdin.isTTY is true.
 * `answer` waits for a question's n-th appearance, then types the answer.
 */
function initOnTerminal(dir: string, args: string) {
  const command = `${JSON.stringify(process.execPath)} scripts/init.ts ${args}`;
  const child = spawn('script', ['-qec', command, '/dev/null'], { cwd: ROOT, env: { ...process.env, CONTENT_DIR: dir } });
  let screen = '';
  const waiting: { text: string; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    screen += chunk;
    for (const w of waiting.filter((w) => screen.includes(w.text))) w.resolve();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const answer = async (question: string, text: string, nth = 1) => {
    const marker = `${question}: `;
    const appeared = () => screen.split(marker).length - 1 >= nth;
    if (!appeared()) {
      const asked = new Promise<void>((resolve) => waiting.push({ text: marker, resolve: () => appeared() && resolve() }));
      const ended = exited.then(() => Promise.reject(new Error(`init ended before asking "${question}":\n${screen}`)));
      await Promise.race([asked, ended]);
    }
    child.stdin.write(`${text}\r`);
  };
  return { answer, exited, screen: () => screen };
}

describe('npm run init', () => {
  it('answers --help with the usage and exit 0', async () => {
    const run = await init(await newFolder(), ['--help']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^usage: npm run init -- --name NAME/);
    expect(run.stdout).toContain('[--locale en|es]');
  });

  it.each(['USA', 'UK'])('refuses %s as the country: a two-letter ISO 3166-1 code is needed', async (country) => {
    const run = await init(await newFolder(), FLAGS.map((v) => (v === 'US' ? country : v)));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`--country: "${country}" must be a two-letter ISO 3166-1 country code, e.g. US, CA, GB, DE`);
  });

  it('on a terminal, asks again only for an invalid answer and keeps the others', async () => {
    const dir = await newFolder();
    const { answer, exited, screen } = initOnTerminal(dir, '--name "Acme Plumbing" --city Springfield --region IL --postal-code 62701 --street "1 Main St"');
    await answer('Website (https://...)', 'acme.example');
    await answer('Telephone', '+1-555-0100');
    await answer('Country (two letters, e.g. US)', 'USA');
    const service = 'A service, as [id:]Name[=alias,alias] (empty line when done)';
    await answer(service, 'Drain Cleaning');
    await answer(service, '', 2);
    await answer('A technician, as Name[=alias,alias] (empty line when done)', 'Dana Smith');
    await answer('A technician, as Name[=alias,alias] (empty line when done)', '', 2);
    await answer('A service area, e.g. a town (empty line when done)', '');
    await answer(LANGUAGE, 'fr');
    await answer('Website (https://...)', 'https://acme.example', 2);
    await answer('Country (two letters, e.g. US)', 'us', 2);
    await answer(LANGUAGE, '', 2);
    expect(await exited).toBe(0);
    const shown = screen();
    expect(shown).toContain('--locale: must be one of the languages the site is written in: en, es (not "fr")');
    expect(shown).toContain('--website: "acme.example" must be an http(s) URL');
    expect(shown).toContain('--country: "USA" must be a two-letter ISO 3166-1 country code');
    // Asked as often as at the first round: the valid answers were kept.
    for (const [kept, times] of [['Telephone: ', 1], ['A service, as', 2], ['A technician, as', 2], ['A service area', 1]] as const) expect(shown.split(kept).length - 1, kept).toBe(times);
    const business = JSON.parse(await readFile(path.join(dir, 'business.json'), 'utf8'));
    expect(business).toMatchObject({ url: 'https://acme.example', telephone: '+1-555-0100', address: { country: 'US' }, technicians: [{ name: 'Dana Smith' }] });
    expect(business).not.toHaveProperty('locale'); // an empty answer is English, the default
  });

  it('writes a valid business.json, an empty reviews folder and the default aspects and insights files, then the next steps', async () => {
    const dir = await newFolder();
    const run = await init(dir, FLAGS);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Created ${dir} for Acme Plumbing: business.json, reviews/.gitkeep, aspects.json, insights/faq.json, insights/summary.json.`);
    for (const step of ['npm run import', 'npm start', 'npm run hooks:install', 'docs/deploy.md']) expect(run.stdout).toContain(step);

    const business = JSON.parse(await readFile(path.join(dir, 'business.json'), 'utf8'));
    expect(business).toMatchObject({
      name: 'Acme Plumbing',
      url: 'https://acme.example',
      address: { street: '1 Main St', locality: 'Springfield', region: 'IL', postal_code: '62701', country: 'US' },
      services: [
        { id: 'drain-cleaning', name: 'Drain Cleaning', aliases: ['drain', 'clogged drain'] },
        { id: 'water-heater', name: 'Water Heaters', aliases: [] },
        // The id is the slug the pages use (core/text/text-rules.ts), accents folded, not split.
        { id: 'calefaccion', name: 'Calefacción', aliases: [] },
      ],
      technicians: [{ name: 'Dana Smith', aliases: ['Dana', 'D.S.'] }],
      service_areas: ['Springfield', 'Chatham'],
    });
    expect(await readdir(path.join(dir, 'reviews'))).toEqual(['.gitkeep']);
    // The build's own loader accepts the folder: business, aspect set and editor files.
    const loaded = await loadContent(dir);
    expect(loaded.ok && loaded.value.business.name).toBe('Acme Plumbing');
    expect(loaded.ok && loaded.value.insights.model.aspects.length).toBeGreaterThanOrEqual(10);
    expect(business).not.toHaveProperty('locale'); // English, the default
  });

  it.each([
    { given: 'es', written: 'es', as: '"locale": "es"' },
    { given: 'ES', written: 'es', as: '"locale": "es"' },
    { given: 'en', written: undefined, as: 'no locale (English is the default)' },
  ])('writes --locale $given into business.json as $as', async ({ given, written }) => {
    const dir = await newFolder();
    const run = await init(dir, [...FLAGS, '--locale', given]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(JSON.parse(await readFile(path.join(dir, 'business.json'), 'utf8')).locale).toBe(written);
    const loaded = await loadContent(dir);
    expect(loaded.ok && loaded.value.business.locale).toBe(written);
  });

  it('names every invalid value on its own line and writes nothing', async () => {
    const dir = await newFolder();
    const bad = FLAGS.map((v) => (v === 'https://acme.example' ? 'acme' : v === 'Acme Plumbing' ? ' ' : v === 'water-heater:Water Heaters' ? 'Water Heater!:X' : v));
    const run = await init(dir, [...bad, '--locale', 'fr']);
    expect(run.code).toBe(1);
    expect(run.stderr.split('\n').filter((line) => line.startsWith('--'))).toEqual([
      '--name: is required',
      '--website: "acme" must be an http(s) URL, e.g. https://www.example.com',
      '--service #2 (id): must match [a-z0-9-]+',
      '--locale: must be one of the languages the site is written in: en, es (not "fr")',
    ]);
    expect(run.stderr).toContain('Nothing written.');
    await expect(readdir(dir)).rejects.toThrow(/ENOENT/);
  });

  it('says what is missing when there is no terminal to ask on', async () => {
    const run = await init(await newFolder(), ['--name', 'Acme Plumbing']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--website: is required');
    expect(run.stderr).toContain('--service: give at least one service');
  });

  it('refuses an existing folder without --force; with it, replaces business.json only and keeps the reviews and edited files', async () => {
    const dir = await newFolder();
    await mkdir(path.join(dir, 'reviews'), { recursive: true });
    const reviews = '[{"id":"r-1","rating":5,"date":"2025-01-02","text":"Great.","author":"Kim","verified":true}]\n';
    await writeFile(path.join(dir, 'reviews', '2025-01.json'), reviews);
    await writeFile(path.join(dir, 'aspects.json'), '{"aspects":[{"id":"price","label":"Price","terms":["price"]}]}\n');

    const refused = await init(dir, FLAGS);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(`${dir} already exists (aspects.json, reviews): nothing written; pass --force to replace its business.json (reviews and other files are kept)`);
    await expect(readFile(path.join(dir, 'business.json'))).rejects.toThrow(/ENOENT/);

    const forced = await init(dir, [...FLAGS, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('Kept as they were: aspects.json.');
    expect(await readFile(path.join(dir, 'reviews', '2025-01.json'), 'utf8')).toBe(reviews);
    expect(await readFile(path.join(dir, 'aspects.json'), 'utf8')).toContain('"terms":["price"]');
    expect(JSON.parse(await readFile(path.join(dir, 'business.json'), 'utf8')).name).toBe('Acme Plumbing');
  });

  it('asks on a terminal for what the flags left out, one question at a time, and writes what was answered', async () => {
    const dir = await newFolder();
    const { answer, exited, screen: read } = initOnTerminal(dir, '--name "Acme Plumbing" --city Springfield');
    await answer('Website (https://...)', 'https://acme.example');
    await answer('Telephone', '+1-555-0100');
    await answer('Street address', '1 Main St');
    await answer('Region or state', 'IL');
    await answer('Postal code', '62701');
    await answer('Country (two letters, e.g. US)', 'US');
    const service = 'A service, as [id:]Name[=alias,alias] (empty line when done)';
    await answer(service, 'Drain Cleaning=drain');
    await answer(service, '', 2);
    await answer('A technician, as Name[=alias,alias] (empty line when done)', '');
    await answer('A service area, e.g. a town (empty line when done)', 'Springfield');
    await answer('A service area, e.g. a town (empty line when done)', '', 2);
    await answer(LANGUAGE, 'es');
    expect(await exited).toBe(0);
    const screen = read();
    expect(screen).not.toContain('Business name:');
    expect(screen).not.toContain('City:');
    expect(screen).toContain(`Created ${dir} for Acme Plumbing`);
    const business = JSON.parse(await readFile(path.join(dir, 'business.json'), 'utf8'));
    expect(business).toMatchObject({ name: 'Acme Plumbing', url: 'https://acme.example', telephone: '+1-555-0100', locale: 'es' });
    expect(business.services).toEqual([expect.objectContaining({ name: 'Drain Cleaning', aliases: ['drain'] })]);
    expect(business.technicians ?? []).toEqual([]);
    expect((await loadContent(dir)).ok).toBe(true);
  });
});
