/**
 * The features the learned layer of the analyzer reads (learned-model.ts), each with where it occurs
 * in the analysed text, so a decision can point at the words behind it.
 *
 * - `w:word` and `b:word_word`: words and word pairs, lowercase, apostrophes dropped ("didnt").
 * - `n:word`: a word within three words after a negator in the same clause ("never called" gives
 *   `n:called`), for polarity.
 * - `c:…`: implicit cues the lexicon cannot list: money amounts (`c:money`, two or more: `c:money2`),
 *   clock times and arrival windows (`c:clock`, `c:window`), durations (`c:duration`), repeat visits
 *   (`c:repeat`), one of the business's technicians named (`c:technician`, by name or alias), another
 *   person named as the subject (`c:person`: a capitalised first name), sarcasm
 *   quotes around a fee (`c:scare-quote`).
 * - Honesty cues, phrasings whose words are too common to tell apart one by one: a price or a promise
 *   kept (`c:kept-word`: "charged what they quoted", "made it right"; `c:same-amount`: the same amount
 *   twice, as in "quoted $175, paid $175"), not selling more than needed (`c:no-push`: "didn't push",
 *   "could have sold me a new unit", "straight with me"), and money or terms sprung (`c:misled`: "didn't
 *   mention the fee until the invoice", a "free estimate" then a bill, "billed 3 hours").
 */
import type { Sentence } from './tokenize.ts';

export type FeatureSpans = Map<string, [number, number][]>;

/**
 * The features of one clause: a sentence is cut before each contrast word, so the polarity of an aspect
 * is read from its own side of a "but" ("the heat works but they left insulation everywhere").
 */
export type SentenceFeatures = { start: number; end: number; features: FeatureSpans };

const NEGATORS = new Set([
  'not', 'no', 'never', 'nobody', 'nothing', 'none', 'cant', 'cannot', 'dont', 'didnt', 'doesnt', 'wasnt', 'werent',
  'isnt', 'arent', 'couldnt', 'wouldnt', 'wont', 'havent', 'hasnt', 'hadnt', 'aint', 'without', 'zero',
]);
const CLAUSE_BREAKS = new Set([',', 'but', 'though', 'although', 'however', 'and']);

const NUMBER = String.raw`(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|forty-five|fifteen|several|few|couple(?: of)?|half an?)`;
const CUES: [string, RegExp][] = [
  // How long the job took: a completion word, then a duration ("fixed in an hour", "done in 20 min").
  ['c:done-in', new RegExp(String.raw`\b(?:fixed|done|finished|cleared|repaired|replaced|installed|swapped|wrapped(?: it)? up|knocked (?:it|everything|it all) out|in and out|took|had it)\b[^.!?;]{0,25}?\b(?:in|within|under|about|only|just|like)\s+${NUMBER}\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?)\b|\b${NUMBER}\s+(?:minutes?|mins?|hours?|days?|weeks?)\s+(?:start to finish|to (?:fix|finish|replace|install|get|do))`, 'gi')],
  // How soon they came: "same day", "next morning", "before noon", "within the hour".
  ['c:soon', /\bsame[- ](?:day|afternoon|morning|evening|night)\b|\bnext (?:morning|day)\b|\bbefore (?:noon|lunch|dinner|dark|bedtime|the weekend)\b|\bby (?:noon|lunch|dinner|lunchtime|the afternoon|morning)\b|\bwithin (?:the|an|the same) hour\b|\bthe morning after\b/gi],
  // Arrival against a time: "arrived at 12:40", "in the driveway at 7:58", "showed up at 4:45".
  ['c:arrived-at', /\b(?:arrived|arrives|showed up|shows up|show up|got here|got there|was here|were here|pulled up|rolled in|came|knocked|in the driveway|at the door)\b[^.!?;]{0,15}?\b(?:at|around|by|after|before)\s+\d{1,2}(?::\d\d)?\s?(?:am|pm)?\b/gi],
  // Waiting for an appointment: "waited 5 days", "3 wks wait", "earliest was next week".
  ['c:wait', new RegExp(String.raw`\b(?:wait(?:ed|ing)?|out|later|away)\b[^.!?;]{0,12}?\b${NUMBER}\s+(?:days?|weeks?|wks?|months?)\b|\b${NUMBER}\s+(?:days?|weeks?|wks?|months?)\s+(?:out|wait|later|to get|before)\b|\b(?:earliest|first available|next available|no openings|first opening)\b`, 'gi')],
  // The fault not fixed: "still leaking", "same problem".
  ['c:still-broken', /\bstill\s+(?:not\s+)?(?:leak\w*|broken|not working|doesn['’]?t work|isn['’]?t working|won['’]?t|clogged|tripping|dripping|running|seeping|blowing warm|no heat|no hot water|has the same|having the same|the same)|\bsame (?:problem|issue|leak|thing)\b|\b(?:died|failed|quit|broke|stopped working)\b[^.!?;]{0,20}?\b(?:later|again|after|within)\b/gi],
  // The fault fixed: "works now", "drains like new", "no more leaks", "back on".
  ['c:works-now', /\b(?:works?|working|runs|running|drains?|draining|flowing|blowing|heating|cooling|humming|purring)\b(?:\s+\w+){0,2}\s+(?:now|again|great|perfect(?:ly)?|fine|like new|like a charm|ice cold|cold)\b|\bno more (?:leaks?|drips?|trips?|tripping|clogs?|smell|noise|problems?|issues?|flickering|water)\b|\b(?:back on|back up and running)\b/gi],
  // Nothing charged: "no charge", "wouldn't charge me a dime", "for free".
  ['c:free', /\bno charge\b|\b(?:didn['’]?t|did not|wouldn['’]?t|would not|refused to)\s+charge\b|\bcharged (?:me|us) nothing\b|\bfor free\b|\bfree of charge\b|\bat no (?:cost|charge)\b|\bwaived\b/gi],
  ['c:money', /\$\s?\d[\d,.]*k?|\b\d[\d,.]*\s?(?:bucks|dollars)\b/gi],
  ['c:clock', /\b\d{1,2}(?::\d\d)?\s?(?:am|pm|a\.m\.|p\.m\.)|\b\d{1,2}:\d\d\b|\bnoon\b/gi],
  ['c:window', /\bwindow\b|\bbetween \d{1,2}(?::\d\d)? and \d{1,2}|\b\d{1,2}\s?(?:-|–|to)\s?\d{1,2}\b(?! (?:years|months|weeks|days))/gi],
  [
    'c:duration',
    /\b(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|several|few|couple(?: of)?|half an?)\s+(?:more\s+)?(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?)\b/gi,
  ],
  [
    'c:repeat',
    /\b(?:second|third|fourth|fifth|\d+(?:nd|rd|th))\s+(?:visit|time|trip|tech|technician|call)|\bcame back|\bcome back|\bcoming back|\b(?:two|three|four|five|\d)\s+(?:times|visits|trips)\b|\bagain\b/gi,
  ],
  ['c:scare-quote', /["“][^"”]{2,40}(?:fee|charge|surcharge|special|deal|plan)["”]/gi],
  // Doing what was said: "charged what they quoted", "like they said they would", "matched the quote".
  [
    'c:kept-word',
    /\b(?:did|charged|cost|paid|billed|was|were)\b(?:\s+\w+){0,2}?\s+what (?:they|he|she|we)\s+(?:said|quoted|promised|agreed)\b|\b(?:like|as|when|what) (?:they|he|she) said (?:they|he|she)['’]?(?:d|\s+would)\b|\bas promised\b|\b(?:matched|same as|exactly|right at|was|were)\s+(?:the|their|his|her|our)\s+(?:quote|estimate|phone quote)\b|\bhonou?r(?:ed|ing)?\s+(?:the|their|our|my)\s+(?:price|quote|estimate|warranty)\b|\bstood behind\b|\bmade it right\b|\bowned (?:the|his|her|their|up)\b|\b(?:no|without(?: any| an)?)\s+(?:argument|hassle|fuss)\b/gi,
  ],
  // Not selling more than needed: "didn't push", "no scare tactics", "could have sold me a new unit".
  [
    'c:no-push',
    /\b(?:didn['’]?t|did not|never|wasn['’]?t|weren['’]?t|no|without|zero|not)\s+(?:try(?:ing|ed)? to\s+|once\s+)?(?:push|pushy|upsell|upsold|upselling|pressure|pressured|sell|selling|gimmicks?|scare tactics|sales pitch|hard sell|song and dance|bs|upcharge|padded|pad)\b|\bcould(?:['’]ve| have)\s+(?:easily\s+|just\s+)?(?:sold|charged|replaced|upsold)\b|\b(?:recommended|suggested|went with|did) the cheaper\b|\btold (?:me|us) not to (?:bother|buy|replace|spend|waste)\b|\b(?:talked|talk) (?:me|us) out of\b|\b(?:straight|honest|upfront|up front) (?:with|about)\b|\bstraightforward\b/gi,
  ],
  // Money or terms sprung or misstated: "didn't tell me about the fee until the end", "the 'free' estimate".
  [
    'c:misled',
    /\b(?:didn['’]?t|did not|never|wasn['’]?t|weren['’]?t|not|nobody|no one)\s+(?:tell|told|mention|mentioned|bring|brought|disclose|disclosed|warn|warned|say|said)\b[^.!?;]{0,50}?\buntil\b|\buntil the (?:invoice|bill|end|last minute)\b|\bfree["”']?\s+(?:estimate|inspection|quote)s?\b[^.!?;]{0,40}?(?:\$|\bbill|\bcharged?)|\b(?:billed|charged)\s+(?:me\s+|us\s+)?(?:for\s+)?(?:\d+|two|three|four)\s+(?:hours|hrs)\b|\bnever installed\b|\bfelt (?:taken|cheated|scammed|ripped)\b|\b(?:real|actual)["”']?\s+price\b|\bswitcheroo\b|\bdifferent prices\b/gi,
  ],
];

/** Capitalised words that are not people's names. */
const NOT_NAMES = new Set([
  'i', 'im', 'ive', 'id', 'the', 'a', 'an', 'and', 'but', 'so', 'we', 'he', 'she', 'they', 'it', 'my', 'our', 'ac', 'hvac',
  'riverbend', 'knoxville', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january',
  'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'google', 'yelp', 'angi', 'facebook', 'tn', 'ok', 'okay', 'lol', 'omg', 'thanks', 'thank', 'great', 'very', 'highly',
  'this', 'that', 'these', 'those', 'when', 'then', 'if', 'in', 'on', 'at', 'for', 'from', 'to', 'after', 'also', 'not',
  'no', 'yes', 'just', 'will', 'would', 'called', 'had', 'got', 'was', 'is', 'did', 'do', 'had', 'has', 'have', 'one',
  'two', 'best', 'good', 'first', 'last', 'next', 'even', 'everyone', 'everything', 'nobody', 'someone', 'overall',
  'farragut', 'maryville', 'oak', 'ridge', 'powell', 'halls', 'seymour', 'lenoir', 'city', 'west', 'north', 'south',
  'east', 'fountain', 'city', 'bearden', 'sevierville', 'ev', 'a/c', 'tv', 'usa', 'us', 'mr', 'ms', 'mrs', 'dr',
]);
const SUBJECT_VERBS = new Set([
  'was', 'is', 'were', 'are', 'did', 'does', 'knew', 'knows', 'came', 'showed', 'fixed', 'explained', 'got', 'had',
  'went', 'made', 'rocks', 'rocked', 'took', 'found', 'diagnosed', 'replaced', 'cleaned', 'walked', 'called', 'arrived',
  'handled', 'answered', 'worked', 'helped', 'has', 'and', 'from', 'at', 'in', 'really', 'even', 'always', 'never',
]);

/** Features by clause (SentenceFeatures), in reading order; `technicians` are lowercase words of their names. */
export function extractFeatures(text: string, sentences: readonly Sentence[], technicians: ReadonlySet<string>): SentenceFeatures[] {
  const result = sentences.flatMap(splitClauses).map((sentence) => ({
    start: sentence.start,
    end: sentence.end,
    features: extractSentence(text, sentence, technicians),
  }));
  for (const [name, pattern] of CUES) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const owner = result.find((s) => start >= s.start && start < s.end);
      if (owner !== undefined) add(owner.features, name, [start, start + match[0].length]);
    }
  }
  const money = result.reduce((n, s) => n + (s.features.get('c:money')?.length ?? 0), 0);
  if (money >= 2) {
    for (const s of result) for (const span of s.features.get('c:money') ?? []) add(s.features, 'c:money2', span);
    // The same amount twice ("quoted $175, paid $175"): a price kept.
    const amounts = result.flatMap((s) =>
      (s.features.get('c:money') ?? []).map((span) => ({ s, span, amount: text.slice(span[0], span[1]).replace(/[^\d.]/g, '').replace(/\.$/, '') })),
    );
    for (const a of amounts) if (amounts.some((b) => b !== a && b.amount === a.amount && a.amount !== '')) add(a.s.features, 'c:same-amount', a.span);
  }
  return result;
}

function extractSentence(text: string, sentence: Sentence, technicians: ReadonlySet<string>): FeatureSpans {
  const features: FeatureSpans = new Map();
  const words = sentence.tokens.map((t) => (t.pause ? ',' : t.text.replaceAll("'", '')));
  let negatedUntil = -1;
  words.forEach((word, i) => {
    const token = sentence.tokens[i]!;
    const span: [number, number] = [token.start, token.end];
    if (word === ',' || CLAUSE_BREAKS.has(word)) negatedUntil = -1;
    if (word === ',') return;
    add(features, `w:${word}`, span);
    const stem = stemWord(word);
    if (stem !== word) add(features, `w:${stem}`, span);
    if (i <= negatedUntil) add(features, `n:${word}`, span);
    if (NEGATORS.has(word) || token.text.endsWith("n't")) negatedUntil = i + 3;
    const next = words[i + 1];
    if (next !== undefined && next !== ',') add(features, `b:${word}_${next}`, [token.start, sentence.tokens[i + 1]!.end]);
    if (technicians.has(word.replace(/s$/, '')) || technicians.has(word)) add(features, 'c:technician', span);
    const raw = text.slice(token.start, token.end);
    if (/^[A-Z][a-z]{2,}(?:'s)?$/.test(raw) && !NOT_NAMES.has(word.replace(/s$/, '')) && !NOT_NAMES.has(word)) {
      if (i > 0 || SUBJECT_VERBS.has(next ?? '')) add(features, 'c:person', span);
    }
  });
  return features;
}

function add(features: FeatureSpans, name: string, span: [number, number]) {
  const spans = features.get(name);
  if (spans === undefined) features.set(name, [span]);
  else spans.push(span);
}

/** A light suffix stripper, so "leaked", "leaking" and "leaks" share a feature with "leak". */
function stemWord(word: string): string {
  if (word.length <= 4) return word;
  for (const suffix of ['ing', 'ed', 'es', 's', 'ly']) {
    if (word.endsWith(suffix) && !word.endsWith('ss') && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}

const CONTRAST = new Set(['but', 'however', 'although', 'though', 'yet', 'except']);

/** A sentence cut before each contrast word ("works but they left a mess" gives two clauses). */
function splitClauses(sentence: Sentence): Sentence[] {
  const clauses: Sentence[] = [];
  let tokens: Sentence['tokens'] = [];
  for (const token of sentence.tokens) {
    if (CONTRAST.has(token.text) && tokens.some((t) => !t.pause)) {
      clauses.push({ start: tokens[0]!.start, end: token.start, tokens });
      tokens = [];
    }
    tokens.push(token);
  }
  if (tokens.length > 0) clauses.push({ start: tokens[0]!.start, end: sentence.end, tokens });
  if (clauses.length > 0) clauses[0] = { ...clauses[0]!, start: sentence.start };
  return clauses;
}
