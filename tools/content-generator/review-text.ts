/**
 * Writes the text of one review from its plan: aspect points become clauses, clauses of opposite
 * polarity are joined with "but", "though", "while" (the mixed sentences aspect analysis must split),
 * and an opener, a line about the work done or a sign-off fill the review up to its length.
 * Pieces are planned first and rendered in reading order, so the first reference to the technician
 * is a name or "the tech" and the later ones are pronouns.
 */
import { capitalize, fill, pickUsable, type TextContext } from './template.ts';
import { pickSentenceCount, planPoints, type Point } from './plan.ts';
import { COMPLAINT_ADJECTIVES, PRAISE_ADJECTIVES, type Aspect } from './vocabulary/aspects.ts';
import { COMPLAINTS, MILD_COMPLAINTS } from './vocabulary/complaints.ts';
import { PRAISE } from './vocabulary/praise.ts';
import * as framing from './vocabulary/framing.ts';
import { OPENERS, WORK_LINES } from './vocabulary/services.ts';
import { joinList } from '../../core/text/text-rules.ts';

export type WrittenReview = { text: string; points: Point[] };

type Piece = { sentences: number; points: Point[]; render: () => string };

const PRAISE_MARKERS = ['Also, ', 'Plus, ', 'On top of that, ', 'Honestly, '];
const COMPLAINT_MARKERS = ['Also, ', 'On top of that, ', 'Honestly, ', 'And '];
const PRAISE_TAILS = [', which I really appreciated', ', which made a big difference', ', which is more than I can say for most companies', ', which was a nice surprise'];
const COMPLAINT_TAILS = [', which was frustrating', ", and I'm still waiting on an apology", ', which is just unacceptable', ', which was the last straw'];

export function writeReview(rating: number, ctx: TextContext): WrittenReview {
  const { rng } = ctx;
  const target = pickSentenceCount(rating, rng);
  if (rating === 5 && target === 1 && rng.chance(0.6)) return writeOneLiner(ctx);

  const aspectPieces = buildAspectPieces(planPoints(rating, ctx.tech, rng), rating, ctx);
  let used = aspectPieces.reduce((n, p) => n + p.sentences, 0);
  while (used > target && aspectPieces.length > 1) used -= aspectPieces.pop()!.sentences;

  const room = () => target - used > 0;
  const before: Piece[] = [];
  const after: Piece[] = [];
  if (room() && rng.chance(0.7)) {
    const opener = rng.chance(0.85) ? withCallout(pickUsable(OPENERS[ctx.service.id]!, ctx), ctx) : pickUsable(framing.GENERAL_OPENERS, ctx);
    if (opener) before.push(fixedPiece(opener, ctx)), used++;
  }
  if (room() && ctx.namesTech && rng.chance(0.25)) before.push(fixedPiece(rng.pick(framing.TECH_INTROS), ctx)), used++;
  if (room() && rating >= 3 && rng.chance(0.35)) before.push(fixedPiece(rng.pick(WORK_LINES[ctx.service.id]!), ctx)), used++;
  if (room() && rng.chance(0.6)) {
    const closers = rating >= 4 ? framing.PRAISE_CLOSERS : rating === 3 ? framing.LUKEWARM_CLOSERS : framing.COMPLAINT_CLOSERS;
    const closer = pickUsable(closers, ctx);
    if (closer) after.push(fixedPiece(closer, ctx)), used++;
  }

  const pieces = [...before, ...aspectPieces, ...after];
  const text = pieces.map((p) => p.render()).join(' ');
  return { text, points: aspectPieces.flatMap((p) => p.points) };
}

function writeOneLiner(ctx: TextContext): WrittenReview {
  const { rng } = ctx;
  if (rng.chance(0.35)) return { text: capitalize(fill(rng.pick(framing.SHORT_REVIEWS), ctx)), points: [] };
  const aspects = rng.sample(Object.keys(framing.SHORT_PRAISE) as Aspect[], rng.int(2, 3));
  const words = aspects.map((a) => rng.pick(framing.SHORT_PRAISE[a]!));
  const list = rng.chance(0.5) ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : words.join(', ');
  const text = `${capitalize(list)}${rng.chance(0.4) ? '!' : '.'}`;
  return { text, points: aspects.map((aspect) => ({ aspect, polarity: 'praise' })) };
}

/** "Our AC quit." becomes "Our AC quit, so we called Riverbend." now and then. */
function withCallout(opener: string | undefined, ctx: TextContext): string | undefined {
  if (!opener || !opener.endsWith('.') || /[,{]|call/i.test(opener) || !ctx.rng.chance(0.35)) return opener;
  return opener.slice(0, -1) + ctx.rng.pick(framing.CALLOUTS);
}

function fixedPiece(template: string, ctx: TextContext): Piece {
  return { sentences: 1, points: [], render: () => capitalize(fill(template, ctx)) };
}

function clause(point: Point, ctx: TextContext): string {
  const bank = point.polarity === 'praise' ? PRAISE : point.polarity === 'mild' ? MILD_COMPLAINTS : COMPLAINTS;
  const template = pickUsable(bank[point.aspect], ctx) ?? bank[point.aspect].find((t) => !t.includes('|'))!;
  return fill(template, ctx);
}

function joined(join: string, first: Point, second: Point, ctx: TextContext): Piece {
  return {
    sentences: join.split(/[.!] /).length,
    points: [first, second],
    render: () => {
      const a = clause(first, ctx);
      const b = clause(second, ctx);
      // "While a, b" no longer reads once a has a comma of its own.
      const form = join.startsWith('While') && a.includes(',') ? '{A}, but {b}.' : join;
      return form.replace('{A}', capitalize(a)).replace('{a}', a).replace('{b}', b);
    },
  };
}

function single(point: Point, ctx: TextContext, position: number): Piece {
  const { rng } = ctx;
  const markers = point.polarity === 'praise' ? PRAISE_MARKERS : COMPLAINT_MARKERS;
  const marker = position > 0 && rng.chance(0.15) ? rng.pick(markers) : '';
  const bang = point.polarity === 'praise' ? 0.1 : point.polarity === 'complaint' ? 0.06 : 0;
  const end = rng.chance(bang) ? '!' : '.';
  const tails = point.polarity === 'praise' ? PRAISE_TAILS : point.polarity === 'complaint' ? COMPLAINT_TAILS : [];
  const tail = tails.length > 0 && rng.chance(0.12) ? rng.pick(tails) : '';
  return { sentences: 1, points: [point], render: () => `${capitalize(marker + clause(point, ctx))}${tail}${end}` };
}

/** "{T} was friendly, knowledgeable and quick." from two or three praise (or complaint) points. */
function adjectiveList(points: Point[], ctx: TextContext): Piece {
  const { rng } = ctx;
  const table = points[0]!.polarity === 'praise' ? PRAISE_ADJECTIVES : COMPLAINT_ADJECTIVES;
  const words = points.map((p) => rng.pick(table[p.aspect]!));
  const list = joinList(words);
  const degree = points[0]!.polarity === 'praise' ? '{very}' : '{really}';
  return { sentences: 1, points, render: () => `${capitalize(fill(`{T} was ${degree} ${list}`, ctx))}.` };
}

function buildAspectPieces(points: Point[], rating: number, ctx: TextContext): Piece[] {
  const { rng } = ctx;
  const praise = points.filter((p) => p.polarity === 'praise');
  const negative = points.filter((p) => p.polarity !== 'praise');
  const pieces: Piece[] = [];

  if (praise.length > 0 && negative.length > 0 && (rating < 5 || rng.chance(0.9))) {
    const good = praise.shift()!;
    const bad = negative.shift()!;
    const goodFirst = rng.chance(rating >= 3 ? 0.7 : 0.6);
    const extra = goodFirst ? framing.BAD_NEWS_JOINS : framing.GOOD_NEWS_JOINS;
    const join = rng.chance(0.8) ? rng.pick(framing.CONTRAST_JOINS) : rng.pick(extra);
    pieces.push(goodFirst ? joined(join, good, bad, ctx) : joined(join, bad, good, ctx));
  }

  for (const group of [praise, negative]) {
    const positive = group === praise;
    const table = positive ? PRAISE_ADJECTIVES : COMPLAINT_ADJECTIVES;
    const describable = group.filter((p) => table[p.aspect] !== undefined);
    if (describable.length >= 2 && rng.chance(positive ? 0.25 : 0.2)) {
      const listed = describable.slice(0, rng.int(2, Math.min(3, describable.length)));
      pieces.push(adjectiveList(listed, ctx));
      for (const p of listed) group.splice(group.indexOf(p), 1);
    }
    while (group.length > 0) {
      const point = group.shift()!;
      if (group.length > 0 && point.polarity === group[0]!.polarity && rng.chance(0.3)) {
        const joins = positive ? framing.PRAISE_JOINS : framing.COMPLAINT_JOINS;
        pieces.push(joined(rng.pick(joins), point, group.shift()!, ctx));
      } else {
        pieces.push(single(point, ctx, pieces.length));
      }
    }
  }
  // Praise first in good reviews, complaints first in bad ones; a mixed sentence goes where it reads best.
  return rating >= 3 ? pieces : shuffleMixed(pieces, rng.chance(0.5));
}

function shuffleMixed(pieces: Piece[], mixedLast: boolean): Piece[] {
  if (!mixedLast || pieces.length < 2) return pieces;
  const [first, ...rest] = pieces;
  return [...rest, first!];
}
