/**
 * The search page's form, between the browser and the REST parameters. A GET form sends every field,
 * empty ones included (`rating=&aspect=`), which the REST search would refuse as malformed: an empty
 * field means "any", so it is dropped here, and everything else goes to the search as given.
 */
import type { Insights } from '../schemas/insights.ts';

export function readSearchForm(params: URLSearchParams): URLSearchParams {
  return new URLSearchParams([...params].filter(([, value]) => value !== ''));
}

/** The aspects of /insights.json as options, in its order. */
export function listAspectOptions(insights: Insights): { id: string; label: string }[] {
  return insights.aspects.map(({ id, label }) => ({ id, label }));
}

const FIELD_LABELS: Readonly<Record<string, string>> = {
  query: 'Words in the review:',
  rating: 'Stars:',
  min_rating: 'Minimum stars:',
  mentions_technician: 'Technician:',
  mentions_service: 'Service:',
  aspect: 'Topic:',
  aspect_sentiment: 'Opinion:',
  since: 'From:',
  until: 'To:',
  has_response: 'Owner reply:',
  has_media: 'Photos:',
  sort: 'Order:',
  limit: 'Reviews per page:',
  cursor: 'Page:',
};

/** The form's name for a search parameter, for error messages; an unknown parameter by its own name. */
export function describeSearchField(name: string): string {
  return FIELD_LABELS[name] ?? `${name}:`;
}
