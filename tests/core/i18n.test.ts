/**
 * The site's languages (core/i18n/): every catalogue has exactly English's keys, each of the same kind,
 * with the same plural forms, placeholders and markup; the number and date rules of each language; and
 * business.json's `locale` and aspects.json's `translations` accept only the languages that ship.
 */
import { describe, expect, it } from 'vitest';
import { en } from '../../core/i18n/en.ts';
import { es } from '../../core/i18n/es.ts';
import { LOCALES } from '../../core/i18n/locales.ts';
import { createTranslator } from '../../core/i18n/translator.ts';
import { parseContent } from '../../core/content/parse-content.ts';
import { formatContentProblem } from '../../core/content/problems.ts';
import { parseAspectModel } from '../../core/insights/aspect-model.ts';
import { formatDate } from '../../core/pages/format.ts';
import { formatCount, joinList } from '../../core/text/text-rules.ts';

const CATALOGUES: Record<string, unknown> = { en, es };

const isPlural = (value: unknown): value is { one: string; other: string } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).sort().join() === 'one,other' && Object.values(value).every((v) => typeof v === 'string');

/**
 * A string's placeholders, lowered: `{Aspect}` is `{aspect}` capitalised for a language that starts a
 * sentence with it (core/insights/summary.ts).
 */
const placeholdersOf = (text: string) => [...new Set([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!.toLowerCase()))].sort();
/** The elements a string writes, in order: "<strong> </strong>", or "no markup". */
const tagsOf = (text: string) => [...text.matchAll(/<\/?[a-z]+\b/g)].map((m) => `${m[0]}>`).join(' ') || 'no markup';

/**
 * How `other` differs from `reference`, one line per difference: a missing or extra key, a value of
 * another kind, an array of another length, other placeholders or other markup. A plural's forms are
 * compared together, so a language may write "one" without its count ("Siguiente reseña").
 */
function compareCatalogues(reference: unknown, other: unknown, path = ''): string[] {
  if (isPlural(reference)) {
    if (!isPlural(other)) return [`${path}: must be a plural { one, other }`];
    const union = (p: { one: string; other: string }) => [...new Set([...placeholdersOf(p.one), ...placeholdersOf(p.other)])].sort();
    const problems: string[] = [];
    if (union(reference).join() !== union(other).join()) problems.push(`${path}: placeholders ${union(other).join(', ')} instead of ${union(reference).join(', ')}`);
    if (tagsOf(reference.other) !== tagsOf(other.other)) problems.push(`${path}: markup ${tagsOf(other.other)} instead of ${tagsOf(reference.other)}`);
    return problems;
  }
  if (typeof reference === 'string') {
    if (typeof other !== 'string') return [`${path}: must be a string`];
    const problems: string[] = [];
    if (placeholdersOf(reference).join() !== placeholdersOf(other).join()) problems.push(`${path}: placeholders {${placeholdersOf(other).join('}, {')}} instead of {${placeholdersOf(reference).join('}, {')}}`);
    if (tagsOf(reference) !== tagsOf(other)) problems.push(`${path}: markup ${tagsOf(other)} instead of ${tagsOf(reference)}`);
    return problems;
  }
  if (typeof reference === 'number') return typeof other === 'number' ? [] : [`${path}: must be a number`];
  if (Array.isArray(reference)) {
    if (!Array.isArray(other)) return [`${path}: must be a list`];
    return other.length === reference.length && other.every((v) => typeof v === 'string') ? [] : [`${path}: must list ${reference.length} strings`];
  }
  if (typeof other !== 'object' || other === null || Array.isArray(other)) return [`${path}: must be an object`];
  const ref = reference as Record<string, unknown>;
  const oth = other as Record<string, unknown>;
  const at = (key: string) => (path === '' ? key : `${path}.${key}`);
  return [
    ...Object.keys(ref).filter((key) => !Object.hasOwn(oth, key)).map((key) => `${at(key)}: missing`),
    ...Object.keys(oth).filter((key) => !Object.hasOwn(ref, key)).map((key) => `${at(key)}: not a key of English`),
    ...Object.keys(ref).filter((key) => Object.hasOwn(oth, key)).flatMap((key) => compareCatalogues(ref[key], oth[key], at(key))),
  ];
}

describe('the catalogues', () => {
  it('ship one per locale', () => {
    expect(Object.keys(CATALOGUES).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES.filter((l) => l !== 'en'))('%s has every key of English, each with the same plural forms, placeholders and markup', (locale) => {
    expect(compareCatalogues(en, CATALOGUES[locale])).toEqual([]);
  });

  it('finds a missing key, a missing plural form, a renamed placeholder and lost markup', () => {
    const broken = structuredClone(es) as unknown as Record<string, Record<string, unknown>>;
    delete broken.card!.readMore;
    broken.units!.review = '{count} reseñas';
    broken.card!.rated = 'Valoración: {valor} de 5';
    broken.log!.check = 'Bajo cada reseña, compruébela abre una página. {name} {link}.';
    broken.card!.extra = 'sobra';
    expect(compareCatalogues(en, broken)).toEqual([
      'units.review: must be a plural { one, other }',
      'card.readMore: missing',
      'card.extra: not a key of English',
      'card.rated: placeholders {valor} instead of {rating}',
      'log.check: markup no markup instead of <strong> </strong>',
    ]);
  });

  it('leave no word untranslated: a Spanish string with words is the English one only where both languages say it so', () => {
    const same: string[] = [];
    const walk = (a: unknown, b: unknown, path: string) => {
      if (typeof a === 'string') {
        if (a === b && /[a-z]{3}/i.test(a.replace(/\{\w+\}|<[^>]+>/g, ''))) same.push(path);
      } else if (typeof a === 'object' && a !== null && !Array.isArray(a)) for (const [k, v] of Object.entries(a)) walk(v, (b as Record<string, unknown>)[k], path === '' ? k : `${path}.${k}`);
    };
    walk(en, es, '');
    // "Neutral", "spam", and the names of the feed formats.
    expect(same.sort()).toEqual(['layout.feedAtom', 'layout.feedJsonFeed', 'reasons.withdraw.spam', 'search.neutral']);
  });

  it.each(LOCALES)('%s writes a count of one in the singular: no "one" form keeps the plural word its "other" puts after the count', (locale) => {
    const wrong: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (isPlural(value)) {
        const word = /\{count\} (\p{L}+s)\b/u.exec(value.other)?.[1];
        if (word !== undefined && value.one.includes(`{count} ${word}`)) wrong.push(`${path}: ${value.one}`);
      } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) for (const [k, v] of Object.entries(value)) walk(v, path === '' ? k : `${path}.${k}`);
    };
    walk(CATALOGUES[locale], '');
    expect(wrong).toEqual([]);
    const t = createTranslator(locale);
    expect([t.plural(t.m.search.next, 1), t.plural(t.m.widget.readAll, 1)]).toEqual(locale === 'en' ? ['Next review →', 'Read the review'] : ['Siguiente reseña →', 'Leer la reseña']);
    // Sentences that say "one" for one, rather than "the 1 published rating" or "1 job has been logged; 0 of them".
    for (const plural of [t.m.jobs.intro, t.m.collection.average, t.m.insights.faq.services]) expect(plural.one).not.toContain('{count}');
  });
});

describe('how each language writes numbers and dates', () => {
  const english = createTranslator('en');
  const spanish = createTranslator('es');

  it('writes English exactly as the English-only rules did', () => {
    for (const n of [0, 7, 999, 1000, 1234, 12345, 1234567]) expect(english.count(n)).toBe(formatCount(n));
    for (const date of ['2026-11-14', '2024-02-29', '2025-01-03']) expect(english.date(date)).toBe(formatDate(date));
    expect(english.list(['a', 'b', 'c'])).toBe(joinList(['a', 'b', 'c']));
    expect([english.decimal(4.36, 1), english.rating(4.5), english.percent(48), english.quarter('2025-Q2'), english.month('2026-11'), english.monthShort('2026-09')]).toEqual(['4.4', '4.50', '48%', 'Q2 2025', 'November 2026', 'Sep 2026']);
  });

  it.each([
    [999, '999'],
    [1234, '1234'],
    [12345, '12\u00a0345'],
    [1234567, '1\u00a0234\u00a0567'],
  ])('writes %i in Spanish as %j (RAE: a space, and only from five digits)', (n, text) => expect(spanish.count(n)).toBe(text));

  it('writes Spanish decimals, percentages, dates, quarters and lists', () => {
    expect([spanish.ratingShort(4.8), spanish.rating(4.36), spanish.percent(48)]).toEqual(['4,8', '4,36', '48\u00a0%']);
    expect([spanish.date('2026-11-14'), spanish.date('2025-01-03'), spanish.month('2026-11'), spanish.monthShort('2026-09'), spanish.quarter('2025-Q2')]).toEqual([
      '14 de noviembre de 2026',
      '3 de enero de 2025',
      'noviembre de 2026',
      'sept 2026',
      'T2 2025',
    ]);
    expect([spanish.list(['a']), spanish.list(['Madrid', 'Toledo']), spanish.list(['Madrid', 'Toledo', 'Ibiza']), spanish.list(['padres', 'hijos']), spanish.list(['agua', 'hielo'])]).toEqual(['a', 'Madrid y Toledo', 'Madrid, Toledo e Ibiza', 'padres e hijos', 'agua y hielo']);
  });

  it('chooses plural forms and fills their count', () => {
    expect([0, 1, 2, 12345].map((n) => spanish.plural(spanish.m.units.review, n))).toEqual(['0 reseñas', '1 reseña', '2 reseñas', '12\u00a0345 reseñas']);
    expect(() => spanish.fill(spanish.m.card.rated, {})).toThrow('No value for {rating}');
  });

  it('says "the one review", not "the 1 reviews", where a sentence counts reviews', () => {
    const english = createTranslator();
    expect([1, 2].map((n) => english.plural(english.m.lists.unplaced, n))).toEqual([', and the one review that names no location', ', and the 2 reviews that name no location']);
    expect([1, 2].map((n) => spanish.plural(spanish.m.lists.unplaced, n))).toEqual([', además de la reseña que no nombra ninguna sede', ', además de las 2 reseñas que no nombran ninguna sede']);
  });
});

describe('the locale of business.json', () => {
  const business = {
    name: 'Acme',
    url: 'https://acme.example',
    telephone: '555',
    address: { street: '1 Main St', locality: 'Town', region: 'ST', postal_code: '1', country: 'US' },
    services: [{ id: 'plumbing', name: 'Plumbing' }],
    technicians: [],
    service_areas: [],
  };
  const parse = (data: unknown) => parseContent({ business: { file: 'business.json', data }, reviewFiles: [] });

  it('is English when absent, and any shipped locale when given', () => {
    const absent = parse(business);
    expect(absent.ok && absent.value.business.locale).toBe(undefined);
    const spanish = parse({ ...business, locale: 'es' });
    expect(spanish.ok && spanish.value.business.locale).toBe('es');
  });

  it.each(['fr', 'ES', 'es-MX', 3])('refuses %j, naming the file and the languages that ship', (locale) => {
    const parsed = parse({ ...business, locale });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map(formatContentProblem)).toEqual([`business.json, field locale: must be one of the languages the site is written in: en, es (not ${JSON.stringify(locale)})`]);
  });
});

describe('the translations of aspects.json', () => {
  const aspects = (translations: unknown) => ({ aspects: [{ id: 'price', label: 'Price', terms: ['price'], translations }] });

  it("are optional, and give an aspect's label, description and question in a language", () => {
    expect(parseAspectModel({ aspects: [{ id: 'price', label: 'Price', terms: ['price'] }] }).ok).toBe(true);
    const parsed = parseAspectModel(aspects({ es: { label: 'Precio', question: '¿Son justos sus precios?' } }));
    expect(parsed.ok && parsed.model.aspects[0]!.translations).toEqual({ es: { label: 'Precio', question: '¿Son justos sus precios?' } });
  });

  it('refuse a language that does not ship, and an unknown field', () => {
    const parsed = parseAspectModel(aspects({ fr: { label: 'Prix' }, es: { name: 'Precio' } }));
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues.map((i) => `${i.path.join('.')}: ${i.message}`).sort()).toEqual([
      'aspects.0.translations.es.name: is not a known field',
      'aspects.0.translations.fr: is not a language the site is written in (en, es)',
    ]);
  });
});
