/**
 * A small, deterministic guess at a review's language (issue 43 item 3), for a review whose source did not
 * say: English or Spanish by counts of their commonest words, `und` (BCP 47 "undetermined") when unsure.
 * No model and no download: a wrong guess is worse than none, so it answers only when one language has
 * at least MIN_HITS of its words and at least twice the other's. Words both languages share ("a", "no",
 * "me", "he", "son") count for neither.
 */

/** BCP 47 "undetermined". */
export const UNDETERMINED = 'und';

const MIN_HITS = 2;

const WORDS: Readonly<Record<'en' | 'es', ReadonlySet<string>>> = {
  en: new Set(
    'the and to of was is in it for they were with on my our very this that but not have had are be at we you your would will great good job work came did fixed all out so'.split(' '),
  ),
  es: new Set(
    'el la los las de del que y en muy con por para una un es se lo nos pero fue todo todos más mas su sus le les al como bien muy excelente gracias trabajo llegó llegaron servicio buen buena rápido también está estaba'.split(
      ' ',
    ),
  ),
};

/** Letters only Spanish of the two writes. */
const SPANISH_LETTERS = /[ñ¿¡áéíóú]/giu;

/** `en`, `es`, or `und` when the words do not say clearly. */
export function detectLanguage(text: string): string {
  const counts = { en: 0, es: 0 };
  for (const word of text.toLowerCase().split(/[^\p{L}']+/u)) {
    if (WORDS.en.has(word)) counts.en++;
    if (WORDS.es.has(word)) counts.es++;
  }
  counts.es += Math.min(2, text.match(SPANISH_LETTERS)?.length ?? 0);
  if (counts.en >= MIN_HITS && counts.en >= 2 * counts.es) return 'en';
  if (counts.es >= MIN_HITS && counts.es >= 2 * counts.en) return 'es';
  return UNDETERMINED;
}
