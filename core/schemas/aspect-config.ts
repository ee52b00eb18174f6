/**
 * The shape of content/aspects.json: the aspects insights report on and the domain lexicon layered
 * on the general one (core/insights/lexicon.ts). An owner edits this file, so every problem is
 * reported with its path rather than the first one only.
 */
import { z } from 'zod';
import { SlugSchema } from './content.ts';
import { isLocale, LOCALES } from '../i18n/locales.ts';

/** A word or phrase as customers write it; a final `*` matches any ending ("punctual*"). */
export const TermSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100)
  .regex(/^[^*]+\*?$/, 'may only end with `*` (prefix match), and contain no other `*`');

/** Valence from -5 (very negative) to 5 (very positive); 0 makes a word neutral. */
export const ValenceSchema = z.number().min(-5, 'must be from -5 to 5').max(5, 'must be from -5 to 5');

export const AspectDefinitionSchema = z.strictObject({
  /** Stable id used in published reviews (`aspects[].aspect`) and the `aspect` search filter. */
  id: SlugSchema,
  label: z.string().trim().min(1, 'must not be empty'),
  description: z.string().trim().min(1).optional(),
  /** The customer question answered in the FAQ from this aspect's figures; no FAQ entry when absent. */
  question: z.string().trim().min(1).optional(),
  /**
   * The label, description and question in other languages, by locale (`"es": { "label": "Puntualidad" }`):
   * the pages of a site in that language use them; what is not given there falls back to the fields above.
   */
  translations: z
    .record(
      z.string(),
      z.strictObject({
        label: z.string().trim().min(1, 'must not be empty').optional(),
        description: z.string().trim().min(1).optional(),
        question: z.string().trim().min(1).optional(),
      }),
    )
    .superRefine((translations, ctx) => {
      for (const locale of Object.keys(translations)) {
        if (!isLocale(locale)) ctx.addIssue({ code: 'custom', path: [locale], message: `is not a language the site is written in (${LOCALES.join(', ')})` });
      }
    })
    .optional(),
  /** Words and phrases that mention the aspect by themselves ("price", "on time", "overcharged"). */
  terms: z.array(TermSchema).min(1, 'must list at least one term'),
  /** Words that mention the aspect only when an opinion attaches to them ("the tech was great"). */
  weak_terms: z.array(TermSchema).default([]),
  /** Aspect-specific valences: used for a term of this aspect, or for a word attached to one ("high" price). */
  opinions: z.record(TermSchema, ValenceSchema).default({}),
});

export const AspectConfigSchema = z
  .strictObject({
    $comment: z.string().optional(),
    aspects: z.array(AspectDefinitionSchema).min(1, 'must define at least one aspect'),
    /** Words that take opinions away from aspects: "great company" is praise of no single aspect. */
    general_terms: z.array(TermSchema).default([]),
    /** Domain valences applied whatever the aspect, overriding the general lexicon (0 neutralises a word). */
    lexicon: z.record(TermSchema, ValenceSchema).default({}),
  })
  .superRefine((config, ctx) => {
    const seen = new Map<string, number>();
    config.aspects.forEach((aspect, index) => {
      const first = seen.get(aspect.id);
      if (first !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['aspects', index, 'id'], message: `duplicates the id of aspects[${first}]` });
      } else {
        seen.set(aspect.id, index);
      }
    });
  });

export type AspectConfig = z.output<typeof AspectConfigSchema>;
