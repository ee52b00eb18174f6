/**
 * Topics: recurring key phrases of two or three words, counted once per review, with the sentiment
 * of the sentences they appear in. They are chips a reader should recognise as a subject ("water
 * heater", "maintenance plan"), so a phrase holds no function word (only "of" inside: "peace of
 * mind"), which keeps out clause fragments such as "tech they sent" or "easy to talk"; no number, as
 * a digit or a word ("five stars"), nor a word about the review itself (stars, rating); no opinion word
 * (AFINN |valence| >= 2: the topic is what customers talk about, its sentiment is measured
 * separately); no word of the business's or a technician's name (people are entities, not topics);
 * and it does not end on a word that needs what follows ("knew exactly", "new air").
 * The most frequent phrases win. A phrase that nearly always continues into a longer one ("new air"
 * into "new air conditioner") gives way to it; a phrase that overlaps one already chosen ("new water
 * heater" after "water heater") is skipped.
 */
import { normalizeScore, toPolarity } from './analyze-review.ts';
import type { AspectModel } from './aspect-model.ts';
import type { AnalyzedReview } from './analyzed-review.ts';
import { computeMean, computeNetScore, countPolarity, createCounter } from './figures.ts';
import type { Topic } from '../schemas/insights.ts';
import { GENERAL_LEXICON } from './lexicon.ts';
import { tokenizeText } from './tokenize.ts';
import { compareText } from '../text/text-rules.ts';

const MAX_TOPICS = 20;
const REVIEW_IDS_PER_TOPIC = 5;
const ASPECTS_PER_TOPIC = 3;

export function computeTopics(analyzed: readonly AnalyzedReview[], model: AspectModel, names: readonly string[]): Topic[] {
  const excluded = new Set(names.flatMap((name) => tokenizeText(name).flatMap((s) => s.tokens.map((t) => t.text))));
  const usable = (word: string) =>
    word.length > 1 && !/[\d$]/.test(word) && !excluded.has(word) && Math.abs(GENERAL_LEXICON[word] ?? 0) < 2;

  const counts = new Map<string, number>();
  for (const item of analyzed) {
    const seen = new Set<string>();
    for (const sentence of tokenizeText(item.text)) forEachPhrase(sentence.tokens, usable, (p) => seen.add(p));
    for (const phrase of seen) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  const minimum = Math.max(3, Math.ceil(analyzed.length * 0.003));
  const ranked = [...counts].filter(([, n]) => n >= minimum).sort((a, b) => b[1] - a[1] || compareText(a[0], b[0]));
  const chosen: string[] = [];
  for (const [found, n] of ranked) {
    if (chosen.length >= MAX_TOPICS) break;
    const phrase = findContinuation(found, n, counts);
    if (phrase === null || chosen.includes(phrase)) continue;
    if (chosen.some((c) => ` ${c} `.includes(` ${phrase} `) || ` ${phrase} `.includes(` ${c} `))) continue;
    chosen.push(phrase);
  }

  const topics = new Map(
    chosen.map((phrase) => [
      phrase,
      { counter: createCounter(), ratingSum: 0, ids: [] as string[], aspects: new Map<number, number>() },
    ]),
  );
  for (const item of analyzed) {
    const tone = new Map<string, number>();
    const aspects = new Map<string, Set<number>>();
    tokenizeText(item.text).forEach((sentence, s) => {
      const score = item.analysis.sentences[s];
      forEachPhrase(sentence.tokens, usable, (phrase) => {
        if (!topics.has(phrase)) return;
        tone.set(phrase, (tone.get(phrase) ?? 0) + (score?.tone ?? 0));
        const set = aspects.get(phrase) ?? new Set<number>();
        for (const a of score?.aspects ?? []) set.add(a.aspect);
        aspects.set(phrase, set);
      });
    });
    for (const [phrase, sum] of tone) {
      const topic = topics.get(phrase);
      if (topic === undefined) continue;
      countPolarity(topic.counter, toPolarity(normalizeScore(sum)));
      topic.ratingSum += item.review.rating;
      if (topic.ids.length < REVIEW_IDS_PER_TOPIC) topic.ids.push(item.review.id);
      for (const a of aspects.get(phrase) ?? []) topic.aspects.set(a, (topic.aspects.get(a) ?? 0) + 1);
    }
  }
  return chosen.map((phrase) => {
    const topic = topics.get(phrase) ?? { counter: createCounter(), ratingSum: 0, ids: [], aspects: new Map() };
    const { mentions, positive, neutral, negative } = topic.counter;
    return {
      phrase,
      reviews: mentions,
      positive,
      neutral,
      negative,
      net_score: computeNetScore(topic.counter),
      average_rating: computeMean(topic.ratingSum, mentions),
      aspects: [...topic.aspects]
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, ASPECTS_PER_TOPIC)
        .map(([a]) => model.aspects[a]?.id ?? String(a)),
      review_ids: topic.ids,
      filter: { query: phrase },
    };
  });
}

/**
 * What a two-word phrase stands for: the longer phrase it runs into in at least 80% of its reviews
 * ("new air" → "new air conditioner"); null when it runs on that often but into different words (a
 * fragment, "new air" of "new air handler" and "new air filter"); else itself.
 */
function findContinuation(phrase: string, count: number, counts: ReadonlyMap<string, number>): string | null {
  if (phrase.split(' ').length >= 3) return phrase;
  let best: [string, number] | undefined;
  let onward = 0;
  for (const [longer, n] of counts) {
    if (longer.split(' ').length !== 3 || !` ${longer} `.includes(` ${phrase} `)) continue;
    if (longer.startsWith(`${phrase} `)) onward += n;
    if (n < count * 0.8) continue;
    if (best === undefined || n > best[1] || (n === best[1] && compareText(longer, best[0]) < 0)) best = [longer, n];
  }
  if (best !== undefined) return best[0];
  return onward >= count * 0.8 ? null : phrase;
}

function forEachPhrase(tokens: readonly { text: string; pause: boolean }[], usable: (w: string) => boolean, visit: (p: string) => void): void {
  const fits = (word: string) => usable(word) && !NOT_TOPICS.has(word);
  for (let i = 0; i < tokens.length; i++) {
    const first = tokens[i];
    if (first === undefined || first.pause || STOPWORDS.has(first.text) || !fits(first.text)) continue;
    let phrase = first.text;
    for (let n = 1; n < 3; n++) {
      const next = tokens[i + n];
      if (next === undefined || next.pause || !fits(next.text)) break;
      // Inside a phrase, "of" only: any other function word makes it a clause ("tech they sent").
      if (STOPWORDS.has(next.text) && next.text !== 'of') break;
      phrase += ` ${next.text}`;
      if (!STOPWORDS.has(next.text) && !OPEN_ENDED.has(next.text)) visit(phrase);
    }
  }
}

/** Words about the review rather than its subject, and numbers written out: never part of a topic. */
const NOT_TOPICS = new Set(
  `star stars rating ratings review reviews reviewed recommend recommended recommending experience experiences difference zero one two
  three four five six seven eight nine ten eleven twelve first second third fourth fifth hundred thousand`.split(/\s+/).filter(Boolean),
);

/** Words that need what follows them: a phrase may not end on one ("knew exactly", "new air" is cut short). */
const OPEN_ENDED = new Set(
  `exactly sent used said asked knew big new old little same whole entire next other another few several such kind sort
  quite pretty fairly extremely super truly absolutely`.split(/\s+/).filter(Boolean),
);

const STOPWORDS = new Set(
  `a about above after again against all also am an and any are as at be because been before being below between both but by
  can could did do does doing done down during each even ever every few for from further get got had has have having he her
  here hers him his how i if in into is it its itself just me more most my no nor not now of off on once only or other our
  ours out over own really she should so some still such than that the their theirs them then there these they this
  those through to too under until up us very was way we well were what when where which while who whom why will with would
  you your yours i'm i've i'd it's we're we've they're they've didn't don't wasn't weren't couldn't wouldn't won't can't
  he's she's that's there's also came come comes went go going gone one two three came back said told let make made take
  took much many lot lots really definitely highly again last time times`
    .split(/\s+/)
    .filter(Boolean),
);
