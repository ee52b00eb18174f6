import { describe, expect, it } from 'vitest';
import { parseContent, type RawContent } from '../../core/content/parse-content.ts';
import { publishReviews } from '../../core/content/publish-reviews.ts';
import { parseAspectModel } from '../../core/insights/aspect-model.ts';
import { createMentionMatcher } from '../../core/mentions.ts';
import { aggregateRatings } from '../../core/aggregate.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { ZOD_DEFAULT_PHRASES } from '../../core/schemas/issues.ts';

const business = {
  name: 'Acme Air',
  url: 'https://acme.example',
  telephone: '555',
  address: { street: '1 A St', locality: 'Town', region: 'ST', postal_code: '00001', country: 'US' },
  services: [
    { id: 'ac-repair', name: 'AC repair', aliases: ['A/C', 'air conditioning'] },
    { id: 'duct-cleaning', name: 'Duct cleaning', aliases: ['ducts'] },
  ],
  technicians: [
    { name: 'Michael Reyes', aliases: ['Mike'] },
    { name: 'Al Okafor', aliases: ['Al'] },
  ],
  service_areas: ['Town', 'Village'],
};

const review = (over: Record<string, unknown>) => ({ id: 'r-1', rating: 5, date: '2025-01-01', text: 'Fine.', author: 'A', verified: true, ...over });
const raw = (reviews: unknown[], biz: unknown = business): RawContent => ({ business: { file: 'business.json', data: biz }, reviewFiles: [{ file: 'reviews/a.json', data: reviews }] });
const urls = createServiceUrls('https://reviews.example.com');
const aspectModel = (() => {
  const parsed = parseAspectModel({ aspects: [{ id: 'punctuality', label: 'Punctuality', terms: ['on time', 'late'], opinions: { 'on time': 2, late: -2 } }] });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.model;
})();

describe('parseContent', () => {
  it('reports every problem at once with file, review id and field', () => {
    const result = parseContent(raw([review({ rating: 0 }), review({ id: 'r-2', date: '2025-13-01', extra: 1 }), { text: 'no id' }]));
    expect(result.ok).toBe(false);
    const problems = result.ok ? [] : result.problems;
    expect(problems).toContainEqual(expect.objectContaining({ file: 'reviews/a.json', review: 'r-1', field: 'rating' }));
    expect(problems).toContainEqual(expect.objectContaining({ review: 'r-2', field: 'date' }));
    expect(problems).toContainEqual(expect.objectContaining({ review: 'r-2', field: 'extra', message: 'is not a known field' }));
    expect(problems.map((p) => p.message).join('\n')).not.toMatch(ZOD_DEFAULT_PHRASES);
    expect(problems).toContainEqual(expect.objectContaining({ review: '#2', field: 'id' }));
  });

  it.each([
    [{ technicians: ['Nobody'] }, 'technicians.0'],
    [{ services: ['plumbing'] }, 'services.0'],
    [{ service_area: 'Elsewhere' }, 'service_area'],
    [{ response: { text: 'Thanks', date: '2024-12-31' } }, 'response.date'],
    [{ id: 'Bad_Id' }, 'id'],
    [{ source_url: 'javascript:alert(1)' }, 'source_url'],
    [{ source_url: 'not a url' }, 'source_url'],
    [{ media: [{ file: '../business.json' }] }, 'media.0.file'],
    [{ media: [{ file: 'media/../../etc/passwd' }] }, 'media.0.file'],
    [{ media: [{ file: '/etc/passwd' }] }, 'media.0.file'],
    [{ media: [{ file: 'https://lh3.googleusercontent.com/p/photo.jpg' }] }, 'media.0.file'],
    [{ media: [{ video_url: 'javascript:alert(1)', poster: 'media/r-1/p.jpg' }] }, 'media.0.video_url'],
    [{ media: [{ file: 'media/r-1/a.jpg', caption: 'typo' }] }, 'media.0.caption'],
  ])('refuses a review with %j', (over, field) => {
    const result = parseContent(raw([review(over)]));
    expect(result.ok ? [] : result.problems.map((p) => p.field)).toContain(field);
  });

  it('refuses an alias shared by two technicians', () => {
    const biz = { ...business, technicians: [{ name: 'A B', aliases: ['Sam'] }, { name: 'C D', aliases: ['sam'] }] };
    const result = parseContent(raw([], biz));
    expect(result.ok ? '' : result.problems[0]!.message).toContain('"sam" names both A B and C D');
  });

  it.each(['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'ftp://acme.example/'])('refuses a business url that is not http(s): %s', (url) => {
    const result = parseContent(raw([], { ...business, url }));
    expect(result.ok ? [] : result.problems).toContainEqual({ file: 'business.json', field: 'url', message: 'must be an absolute http(s) URL, e.g. https://example.com' });
    expect(parseContent(raw([], { ...business, url: 'http://acme.example/' })).ok).toBe(true);
  });

  it('refuses a file that is not an array', () => {
    const result = parseContent({ business: { file: 'business.json', data: business }, reviewFiles: [{ file: 'reviews/x.json', data: {} }] });
    expect(result.ok ? [] : result.problems).toEqual([{ file: 'reviews/x.json', message: 'must be a JSON array of reviews' }]);
  });
});

describe('publishReviews', () => {
  const publish = (reviews: unknown[]) => {
    const parsed = parseContent(raw(reviews));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    return publishReviews(parsed.value, urls, aspectModel).reviews;
  };

  it('publishes only verified reviews, newest first then by id, with every field present', () => {
    const out = publish([review({ id: 'b', date: '2025-01-02' }), review({ id: 'a', date: '2025-01-02' }), review({ id: 'c', date: '2025-01-03' }), review({ id: 'x', verified: false })]);
    expect(out.map((r) => r.id)).toEqual(['c', 'a', 'b']);
    expect(out[0]).toEqual({
      id: 'c', rating: 5, date: '2025-01-03', text: 'Fine.', title: null, author: 'A', source: 'direct', verified: true,
      technicians: [], services: [], service_area: null, response: null, url: 'https://reviews.example.com/reviews/2025-01/#c', updated: '2025-01-03T00:00:00Z', media: [], aspects: [],
    });
  });

  it.each([
    ['an English review', {}, {}],
    ['a review detected as Spanish', { text: 'Llegaron muy puntuales y el precio fue justo.' }, { language: 'es' }],
    ['a review the detector cannot tell', { text: 'Perfecto!' }, {}],
    ['a review whose content names its language', { text: 'Perfecto!', language: 'es' }, { language: 'es' }],
    [
      'a review with a translation',
      { text: 'Perfecto!', language: 'es', translation: { text: 'Perfect!', language: 'en', by: 'google' } },
      { language: 'es', translation: { text: 'Perfect!', title: null, language: 'en', by: 'google' } },
    ],
  ])('publishes the language and translation of %s only when not English', (_, over, published) => {
    const [out] = publish([review(over)]);
    expect({ language: out!.language, translation: out!.translation }).toEqual({ language: undefined, translation: undefined, ...published });
    expect(Object.keys(out!).includes('language')).toBe('language' in published);
  });

  it.each([{ language: 'Spanish' }, { translation: { text: 'Perfect!', by: 'google' } }, { translation: { text: '', language: 'en', by: 'google' } }])(
    'refuses a malformed language or translation: %j',
    (over) => {
      const result = parseContent(raw([review(over)]));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.problems[0]).toMatchObject({ review: 'r-1', field: expect.stringMatching(/^(language|translation)/) });
    },
  );

  it('publishes the link to the original review only when the content has one', () => {
    const [withLink, without] = publish([
      review({ id: 'a', date: '2025-01-02', source: 'yelp', source_url: 'https://www.yelp.com/biz/acme?hrid=abc' }),
      review({ id: 'b', date: '2025-01-01', source: 'google' }),
    ]);
    expect(withLink!.source_url).toBe('https://www.yelp.com/biz/acme?hrid=abc');
    expect(Object.keys(without!)).not.toContain('source_url');
  });

  it('gives each review the aspects of its title and text, with evidence offsets into the field that holds it', () => {
    const [late, onTime] = publish([
      review({ id: 'a', date: '2025-01-02', rating: 2, text: 'The tech was late.' }),
      review({ id: 'b', date: '2025-01-01', rating: 5, title: 'Right on time', text: 'He was late once, never again.' }),
    ]);
    expect(late!.aspects).toEqual([
      { aspect: 'punctuality', polarity: 'negative', score: expect.any(Number), evidence: [{ field: 'text', start: 13, end: 17 }] },
    ]);
    const punctuality = onTime!.aspects.find((a) => a.aspect === 'punctuality');
    expect(punctuality?.polarity).toBe('positive');
    const quoted = punctuality!.evidence.map((e) => onTime![e.field]!.slice(e.start, e.end));
    expect(quoted).toEqual(['on time', 'late']);
    expect(punctuality!.evidence.map((e) => e.field)).toEqual(['title', 'text']);
  });

  it('merges explicit tags with whole-word, case-insensitive mentions in the text, under canonical names', () => {
    const [r] = publish([review({ text: 'MIKE fixed the a/c; the Ducts too. Allen was not here.', technicians: ['Al'], service_area: 'village' })]);
    expect(r!.technicians).toEqual(['Michael Reyes', 'Al Okafor']);
    expect(r!.services).toEqual(['ac-repair', 'duct-cleaning']);
    expect(r!.service_area).toBe('Village');
  });
});

describe('createMentionMatcher', () => {
  const matcher = createMentionMatcher([
    { key: 'Michael Reyes', terms: ['Michael Reyes', 'Mike'] },
    { key: 'Al Okafor', terms: ['Al Okafor', 'Al'] },
  ]);
  it.each([
    ['Mike was great', ['Michael Reyes']],
    ['Michael   Reyes came', ['Michael Reyes']],
    ['Mikey came', []],
    ['Allen came', []],
    ['al, and mike.', ['Michael Reyes', 'Al Okafor']],
    ['Ask for AL!', ['Al Okafor']],
    ['dial 5', []],
  ])('finds in %j: %j', (text, expected) => {
    expect(matcher.findIn(text)).toEqual(expected);
  });
});

describe('aggregateRatings', () => {
  it('counts the distribution and rounds the mean to 2 decimals', () => {
    expect(aggregateRatings([{ rating: 5 }, { rating: 4 }, { rating: 4 }])).toEqual({
      rating_value: 4.33, review_count: 3, best_rating: 5, worst_rating: 1, distribution: { '1': 0, '2': 0, '3': 0, '4': 2, '5': 1 },
    });
    expect(aggregateRatings([]).rating_value).toBe(0);
  });
});
