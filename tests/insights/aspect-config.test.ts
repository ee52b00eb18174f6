import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAspectModel } from '../../core/insights/aspect-model.ts';
import { readInsightsContent } from '../../core/insights/insights-content-fs.ts';
import { DEFAULT_ASPECTS_FILE } from '../../core/content/load-content.ts';
import { readJson } from './load-fixtures.ts';
import { ZOD_DEFAULT_PHRASES } from '../../core/schemas/issues.ts';

const REQUIRED_ASPECTS = [
  'punctuality', 'professionalism', 'communication', 'quality', 'price',
  'cleanliness', 'speed', 'expertise', 'scheduling', 'honesty',
];

describe('parseAspectModel', () => {
  it('accepts the shipped core/insights/default-aspects.json with the ten home-services aspects', () => {
    const parsed = parseAspectModel(readJson('core/insights/default-aspects.json'));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.model.aspects.map((a) => a.id)).toEqual(REQUIRED_ASPECTS);
  });

  it('reports every problem at once, each with its path', () => {
    const parsed = parseAspectModel({
      aspects: [
        { id: 'price', label: 'Price', terms: ['price'], opinions: { steep: 9 } },
        { id: 'price', label: 'Again', terms: [] },
        { id: 'Bad Id', label: '', terms: ['ok', 'bad*term'], colour: 'red' },
      ],
      lexicon: { '!!!': 1 },
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    const paths = parsed.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(
      expect.arrayContaining([
        'aspects.0.opinions.steep',
        'aspects.1.terms',
        'aspects.2.id',
        'aspects.2.label',
        'aspects.2.terms.1',
        'aspects.2.colour',
      ]),
    );
    expect(parsed.issues.every((i) => i.message.length > 0)).toBe(true);
    expect(parsed.issues.map((i) => i.message).join('\n')).not.toMatch(ZOD_DEFAULT_PHRASES);
  });

  it('reports a duplicate id and a term without letters once the shape is right', () => {
    const duplicate = parseAspectModel({ aspects: [{ id: 'a', label: 'A', terms: ['x'] }, { id: 'a', label: 'B', terms: ['y'] }] });
    expect(duplicate).toEqual({ ok: false, issues: [expect.objectContaining({ path: ['aspects', 1, 'id'] })] });
    const symbols = parseAspectModel({ aspects: [{ id: 'a', label: 'A', terms: ['x'] }], lexicon: { '!!!': 1 } });
    expect(symbols).toEqual({ ok: false, issues: [expect.objectContaining({ path: ['lexicon', '!!!'] })] });
  });
});

describe('readInsightsContent', () => {
  const dirs: string[] = [];
  const makeContentDir = async (files: Record<string, string>) => {
    const dir = await mkdtemp(join(tmpdir(), 'insights-content-'));
    dirs.push(dir);
    await mkdir(join(dir, 'insights'));
    for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  const minimalAspects = JSON.stringify({ aspects: [{ id: 'price', label: 'Price', terms: ['price'] }] });

  it('reads the aspect set and treats absent editor files as empty', async () => {
    const result = await readInsightsContent(await makeContentDir({ 'aspects.json': minimalAspects }));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.content.model.aspects.map((a) => a.id)).toEqual(['price']);
    expect(result.content.editorial).toEqual({ faq: { entries: [], hide: [] }, summary: {} });
  });

  it('reads the shipped editor files of the demo (examples/demo/insights)', async () => {
    const result = await readInsightsContent('examples/demo', { fallbackAspectsFile: DEFAULT_ASPECTS_FILE });
    expect(result.ok).toBe(true);
  });

  it('falls back to the given aspects file, and reports a missing one otherwise', async () => {
    const dir = await makeContentDir({});
    expect(await readInsightsContent(dir)).toEqual({
      ok: false,
      issues: [expect.objectContaining({ path: ['aspects.json'], message: 'is missing' })],
    });
    const withFallback = await readInsightsContent(dir, { fallbackAspectsFile: 'core/insights/default-aspects.json' });
    expect(withFallback.ok).toBe(true);
  });

  it('names the file and field of every problem in the editor files and the aspect set', async () => {
    const dir = await makeContentDir({
      'aspects.json': JSON.stringify({ aspects: [{ id: 'price', label: 'Price', terms: [] }] }),
      'insights/faq.json': JSON.stringify({ entries: [{ question: 'Do you offer financing?' }] }),
      'insights/summary.json': '{ not json',
    });
    const result = await readInsightsContent(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path.join('.'))).toEqual(
      expect.arrayContaining(['insights/summary.json', 'aspects.json.aspects.0.terms', 'insights/faq.json.entries.0.answer']),
    );
  });
});
