/**
 * A review the customer wrote in Spanish on Google, and the English translation Google serves beside it
 * ("(Translated by Google) … (Original) …", which the import keeps apart as `translation`). It says what
 * the English plan of the same review says (the same aspects, praised or faulted alike), so the owner's
 * reply still answers it and the insights, which read it through the translation, count the same things.
 * Every word comes from the review's own Spanish stream: the review's facts and the other reviews' words
 * stay what they were without it.
 */
import type { Random } from './prng.ts';
import type { Author } from './extras.ts';
import type { Point } from './plan.ts';
import type { Aspect } from './vocabulary/aspects.ts';
import * as es from './vocabulary/spanish.ts';
import type { Pair } from './vocabulary/spanish.ts';
import type { TextContext } from './template.ts';

/** Of the demo's Google reviews, the share written in Spanish: 38 of its 492 reviews. */
export const SPANISH_SHARE_OF_GOOGLE = 0.25;

/** What a Spanish review is written from: the English text's own context, less what only English phrasing tracks. */
export type SpanishContext = Pick<TextContext, 'rng' | 'tech' | 'techAliases' | 'namesTech' | 'service' | 'area' | 'price'>;

export type SpanishReview = {
  /** The customer's words. */
  text: string;
  /** Google's translation of them. */
  translation: string;
  /** Whether the text names the technician (the reply may then too). */
  namesTech: boolean;
};

type State = SpanishContext & { introduced: boolean; named: boolean };

const COMPANY = ['Riverbend', 'Riverbend Home Services'];
const CONTRASTS: readonly Pair[] = [['{A}, pero {b}.', '{A}, but {b}.'], ['{A}, aunque {b}.', '{A}, although {b}.']];

export function writeSpanishReview(rating: number, points: readonly Point[], context: SpanishContext): SpanishReview {
  const ctx: State = { ...context, introduced: false, named: false };
  const { rng } = ctx;
  const sentences: Pair[] = [];
  const short = points.every((p) => p.polarity === 'praise' && es.SHORT_PRAISE_ES[p.aspect] !== undefined);
  if (points.length === 0) {
    sentences.push(finish(fill(rng.pick(es.SHORT_REVIEWS_ES), ctx)));
  } else if (rating === 5 && short && points.length >= 2 && rng.chance(0.35)) {
    sentences.push(listPraise(points.map((p) => p.aspect), ctx));
  } else {
    if (rng.chance(0.45)) {
      const opener = rng.chance(0.75) ? pickUsable(es.OPENERS_ES[ctx.service.id]!, ctx) : pickUsable(es.GENERAL_OPENERS_ES, ctx);
      if (opener) sentences.push(finish(fill(opener, ctx)));
    }
    sentences.push(...writePoints(rating, points, ctx));
    if (rng.chance(0.5)) {
      const closers = es.CLOSERS_ES[rating >= 4 ? 'praise' : rating === 3 ? 'lukewarm' : 'complaint'];
      sentences.push(finish(fill(rng.pick(closers), ctx)));
    }
  }
  return { text: sentences.map((s) => s[0]).join(' '), translation: sentences.map((s) => s[1]).join(' '), namesTech: ctx.named };
}

/** Google shows the reviewer's account name: mostly a full name, as Spanish names are written. */
export function pickSpanishAuthor(rng: Random): Author {
  const first = rng.pick(es.FIRST_NAMES_ES);
  const last = rng.pick(es.LAST_NAMES_ES);
  const style = rng.weighted([['full', 70], ['initial', 20], ['first', 10]] as const);
  const display = style === 'full' ? `${first} ${last}` : style === 'initial' ? `${first} ${last[0]}.` : first;
  return { display, greeting: first };
}

function writePoints(rating: number, points: readonly Point[], ctx: State): Pair[] {
  const { rng } = ctx;
  const praise = points.filter((p) => p.polarity === 'praise');
  const negative = points.filter((p) => p.polarity !== 'praise');
  const sentences: Pair[] = [];
  if (praise.length > 0 && negative.length > 0) {
    const good = praise.shift()!;
    const bad = negative.shift()!;
    const [first, second] = rng.chance(rating >= 3 ? 0.7 : 0.4) ? [good, bad] : [bad, good];
    sentences.push(join(rng.pick(CONTRASTS), clause(first, ctx), clause(second, ctx)));
  }
  for (const group of rating >= 3 ? [praise, negative] : [negative, praise]) {
    while (group.length > 0) {
      const point = group.shift()!;
      const first = clause(point, ctx);
      // One "y" to a sentence: "fue muy honesta y no nos quiso vender nada" takes no second one.
      if (group.length > 0 && !first[0].includes(' y ') && rng.chance(0.35)) {
        sentences.push(join(['{A} y {b}.', '{A} and {b}.'], first, clause(group.shift()!, ctx)));
      } else {
        sentences.push(finish(first, point.polarity === 'praise' && rng.chance(0.12)));
      }
    }
  }
  return sentences;
}

function clause(point: Point, ctx: State): Pair {
  const bank = point.polarity === 'praise' ? es.PRAISE_ES : point.polarity === 'mild' ? es.MILD_ES : es.COMPLAINTS_ES;
  return fill(pickUsable(bank[point.aspect], ctx)!, ctx);
}

/** "Puntuales, honestos y rápidos." */
function listPraise(aspects: readonly Aspect[], ctx: State): Pair {
  const words = aspects.map((a) => ctx.rng.pick(es.SHORT_PRAISE_ES[a]!));
  const list = (side: 0 | 1, and: string) => `${words.slice(0, -1).map((w) => w[side]).join(', ')} ${and} ${words.at(-1)![side]}`;
  return finish([list(0, conjunctionBefore(words.at(-1)![0])), list(1, 'and')], ctx.rng.chance(0.4));
}

/** `{A} y {b}.` with the two clauses; Spanish "y" becomes "e" before an /i/ sound ("e hicieron"). */
function join(form: Pair, a: Pair, b: Pair): Pair {
  const spanish = form[0].replace(' y {b}', ` ${conjunctionBefore(b[0])} {b}`);
  return [
    capitalize(spanish.replace('{A}', a[0]).replace('{b}', b[0])),
    capitalize(form[1].replace('{A}', a[1]).replace('{b}', b[1])),
  ];
}

function conjunctionBefore(word: string): string {
  return /^h?i(?![aeiouáéíóú])/i.test(word) ? 'e' : 'y';
}

/** A clause as a sentence of its own; an exclamation opens with "¡" in Spanish. */
function finish([spanish, english]: Pair, bang = false): Pair {
  const end = (text: string) => (/[.!?]$/.test(text) ? text : `${text}${bang ? '!' : '.'}`);
  return [bang ? `¡${capitalize(end(spanish))}` : capitalize(end(spanish)), capitalize(end(english))];
}

function pickUsable(pairs: readonly Pair[], ctx: State): Pair | undefined {
  const usable = pairs.filter(([spanish]) => (!spanish.startsWith('R|') || ctx.service.kind === 'repair') && (!spanish.includes('{area}') || ctx.area !== undefined));
  return usable.length === 0 ? undefined : ctx.rng.pick(usable);
}

/** Both sides of a pair with the same values in their slots. */
function fill(pair: Pair, ctx: State): Pair {
  const values = new Map<string, Pair>();
  const valueOf = (slot: string) => {
    let value = values.get(slot);
    if (value === undefined) values.set(slot, (value = drawSlot(slot, ctx)));
    return value;
  };
  const render = (template: string, side: 0 | 1) =>
    template
      .replace(/^[RI]\|/, '')
      .replace(/\{(\w+)\}/g, (_, slot: string) => valueOf(slot)[side])
      .replace(/ {2,}/g, ' ')
      .trim();
  return [render(pair[0], 0), render(pair[1], 1)];
}

function drawSlot(slot: string, ctx: State): Pair {
  const { rng, tech, service } = ctx;
  const she = tech.pronoun === 'she';
  switch (slot) {
    case 'T':
      return referToTech(ctx);
    case 'o':
      return [she ? 'a' : 'o', ''];
    case 'he':
      return ['', she ? 'she' : 'he'];
    case 'his':
      return ['', she ? 'her' : 'his'];
    case 'thing':
      return rng.pick(es.THINGS_ES[service.id]!);
    case 'price':
      return [ctx.price, ctx.price];
    case 'company': {
      const name = rng.pick(COMPANY);
      return [name, name];
    }
    case 'area':
      return [ctx.area!, ctx.area!];
    case 'wait':
    case 'days':
    case 'quick':
    case 'day':
      return rng.pick(es.SLOT_VALUES_ES[slot]);
    default:
      throw new Error(`unknown template slot {${slot}}`);
  }
}

/** A name or "el técnico" first; after that Spanish drops the subject and English says "he" or "she". */
function referToTech(ctx: State): Pair {
  const { rng, tech } = ctx;
  if (ctx.introduced) return ['', tech.pronoun];
  ctx.introduced = true;
  if (!ctx.namesTech) {
    const [masculine, feminine, english] = es.WORKERS_ES[ctx.service.category];
    return [tech.pronoun === 'she' ? feminine : masculine, english];
  }
  ctx.named = true;
  // "Mr. Washington" is English; a Spanish review says the first name, or the whole name.
  const names = [...ctx.techAliases.filter((a) => !/^M[rs]\. /.test(a)).map((a, i) => [a, i === 0 ? 3 : 1] as const), [tech.name, 1] as const];
  const name = rng.weighted(names);
  return [name, name];
}

function capitalize(text: string): string {
  return text.length === 0 ? text : text[0]!.toUpperCase() + text.slice(1);
}
