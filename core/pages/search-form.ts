/**
 * The search page's form, between the browser and the REST parameters. A GET form sends every field,
 * empty ones included (`rating=&aspect=`), which the REST search would refuse as malformed: an empty
 * field means "any", so it is dropped here, and everything else goes to the search as given.
 */
import type { Insights } from '../schemas/insights.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';

export function readSearchForm(params: URLSearchParams): URLSearchParams {
  return new URLSearchParams([...params].filter(([, value]) => value !== ''));
}

/**
 * The aspects of /insights.json as options, in its order; `labels` (by id) names them in the site's
 * language (core/publishing/site-language.ts), /insights.json's own label otherwise.
 */
export function listAspectOptions(insights: Insights, labels: Readonly<Record<string, string>> = {}): { id: string; label: string }[] {
  return insights.aspects.map(({ id, label }) => ({ id, label: labels[id] ?? label }));
}

/** The form's name for a search parameter, for error messages; an unknown parameter by its own name. */
export function describeSearchField(name: string, t: Translator = createTranslator()): string {
  const fields: Readonly<Record<string, string>> = t.m.search.fields;
  return Object.hasOwn(fields, name) ? fields[name]! : t.fill(t.m.search.unknownField, { name });
}
