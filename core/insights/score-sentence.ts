/**
 * Aspect-level sentiment of one sentence.
 *
 * 1. Match the sentence against the phrase index (longest phrase first).
 * 2. Cut it into clauses at contrast markers: "but"/"however"/"yet" open a clause that weighs 1.5 and
 *    halve what came before; "although"/"though" open a clause, up to the next comma, that weighs 0.5.
 * 3. Shift each opinion by the intensifier or downtoner right before it and flip it (×-0.8) when a
 *    negator stands at most three tokens before it in the same clause without a comma between.
 * 4. An opinion that is itself an aspect term ("punctual", "overcharged", "left a mess") scores that
 *    aspect; any other opinion goes to the nearest aspect term of its clause (a comma counts as two
 *    tokens; a tie goes to the term before it, as in "the price was fair", unless the term directly
 *    follows the opinion, as in "decent work"), scored with that aspect's
 *    own valence for the word when it has one ("high" is bad for a price, good for quality).
 *    Opinions that land on a general term ("great company") score no aspect.
 */
import type { AspectModel } from './aspect-model.ts';
import {
  ADVERSATIVE_WEIGHT,
  BEFORE_ADVERSATIVE_WEIGHT,
  CONCESSIVE_WEIGHT,
  NEGATION_FACTOR,
  NEGATION_WINDOW,
} from './lexicon.ts';
import type { IndexEntry } from './phrase-index.ts';
import type { Sentence } from './tokenize.ts';

export type SentenceScore = {
  start: number;
  end: number;
  /**
   * Aspects mentioned in the sentence (by model index, ascending) with their summed raw score and the
   * character spans (into the analysed text) of the terms and opinions that decided them.
   */
  aspects: { aspect: number; raw: number; spans: [number, number][] }[];
  /** Sum of every opinion in the sentence, whatever it is about. */
  tone: number;
};

type Target = { start: number; end: number; clause: number; entry: IndexEntry; received: number[]; opinions: Opinion[] };
type Opinion = { start: number; end: number; clause: number; entry: IndexEntry; factor: number };

const MAX_ATTACH_DISTANCE = 10;

export function scoreSentence(sentence: Sentence, model: AspectModel): SentenceScore {
  const { tokens } = sentence;
  const pausesBefore = [0];
  let pauses = 0;
  for (const token of tokens) pausesBefore.push(token.pause ? ++pauses : pauses);

  const clauseWeights = [1];
  let concessiveOpen = false;
  let negatorEnd = -1;
  let intensity: { factor: number; end: number } | undefined;
  const targets: Target[] = [];
  const opinions: Opinion[] = [];
  const openClause = (weight: number) => {
    clauseWeights.push(weight);
    negatorEnd = -1;
    intensity = undefined;
  };

  for (let i = 0; i < tokens.length; ) {
    if (tokens[i]?.pause) {
      negatorEnd = -1;
      intensity = undefined;
      if (concessiveOpen) {
        concessiveOpen = false;
        openClause(1);
      }
      i++;
      continue;
    }
    const match = model.index.matchAt(tokens, i);
    if (match === undefined) {
      i++;
      continue;
    }
    const { entry, start, end } = match;
    i = end;
    const shifter = entry.shifter;
    if (shifter !== undefined) {
      if (shifter.kind === 'negator') negatorEnd = end;
      else if (shifter.kind === 'intensity') intensity = { factor: shifter.factor, end };
      else if (shifter.kind === 'adversative') {
        clauseWeights.forEach((w, c) => (clauseWeights[c] = w * BEFORE_ADVERSATIVE_WEIGHT));
        concessiveOpen = false;
        openClause(ADVERSATIVE_WEIGHT);
      } else if (shifter.kind === 'concessive') {
        concessiveOpen = true;
        openClause(CONCESSIVE_WEIGHT);
      }
      continue;
    }
    const clause = clauseWeights.length - 1;
    const isTarget = entry.terms.length > 0 || entry.anchor;
    const hasOpinion = (entry.valence !== undefined && entry.valence !== 0) || entry.opinions.size > 0;
    if (isTarget) targets.push({ start, end, clause, entry, received: [], opinions: [] });
    if (!hasOpinion) continue;
    let factor = 1;
    if (intensity !== undefined && start - intensity.end <= 1) factor *= intensity.factor;
    intensity = undefined;
    if (negatorEnd >= 0 && start - negatorEnd <= NEGATION_WINDOW) factor *= NEGATION_FACTOR;
    opinions.push({ start, end, clause, entry, factor });
  }

  let tone = 0;
  const targetAt = new Map<number, Target>(targets.map((t) => [t.start, t]));
  for (const opinion of opinions) {
    const weight = opinion.factor * (clauseWeights[opinion.clause] ?? 1);
    const { entry } = opinion;
    tone += (entry.valence ?? firstOpinion(entry)) * opinion.factor;
    const target = targetAt.get(opinion.start) ?? findNearestTarget(opinion, targets, pausesBefore);
    if (target === undefined) continue;
    target.opinions.push(opinion);
    target.entry.terms.forEach((term, t) => {
      const valence = entry.opinions.get(term.aspect) ?? entry.valence;
      if (valence !== undefined) target.received[t] = (target.received[t] ?? 0) + valence * weight;
    });
  }

  const raw = new Map<number, { raw: number; spans: [number, number][] }>();
  const span = (from: number, to: number): [number, number] => [tokens[from]?.start ?? 0, tokens[to - 1]?.end ?? 0];
  for (const target of targets) {
    target.entry.terms.forEach((term, t) => {
      const received = target.received[t] ?? 0;
      if (term.weak && received === 0) return;
      const found = raw.get(term.aspect) ?? { raw: 0, spans: [] };
      found.raw += received;
      found.spans.push(span(target.start, target.end));
      for (const o of target.opinions) if (o.start !== target.start) found.spans.push(span(o.start, o.end));
      raw.set(term.aspect, found);
    });
  }
  const aspects = [...raw].map(([aspect, value]) => ({ aspect, ...value })).sort((a, b) => a.aspect - b.aspect);
  return { start: sentence.start, end: sentence.end, aspects, tone };
}

function firstOpinion(entry: IndexEntry): number {
  for (const value of entry.opinions.values()) return value;
  return 0;
}

function findNearestTarget(opinion: Opinion, targets: Target[], pausesBefore: number[]): Target | undefined {
  let best: Target | undefined;
  let bestDistance = Infinity;
  for (const target of targets) {
    if (target.clause !== opinion.clause) continue;
    const before = target.end <= opinion.start;
    const from = before ? target.end : opinion.end;
    const to = before ? opinion.start : target.start;
    const distance = to - from + 2 * ((pausesBefore[to] ?? 0) - (pausesBefore[from] ?? 0));
    // Strictly closer wins; at equal distance the earlier target (seen first) stays ("the price was
    // fair"), except for a term right after the opinion ("decent work"): an attributive adjective.
    if (distance < bestDistance || (distance === 0 && bestDistance === 0 && !before)) {
      best = target;
      bestDistance = distance;
    }
  }
  return bestDistance <= MAX_ATTACH_DISTANCE ? best : undefined;
}
