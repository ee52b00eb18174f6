/**
 * The search page's form, between the browser and the REST parameters. A GET form sends every field,
 * empty ones included (`rating=&aspect=`), which the REST search would refuse as malformed: an empty
 * field means "any", so it is dropped here, and everything else goes to the search as given.
 */
import { z } from 'zod';

export function readSearchForm(params: URLSearchParams): URLSearchParams {
  return new URLSearchParams([...params].filter(([, value]) => value !== ''));
}

const AspectListSchema = z.object({ aspects: z.array(z.object({ id: z.string(), label: z.string() })) });

/** The aspects of /insights.json as options, in its order; none when the document has no aspect list. */
export function listAspectOptions(insights: unknown): { id: string; label: string }[] {
  const parsed = AspectListSchema.safeParse(insights);
  return parsed.success ? parsed.data.aspects.map(({ id, label }) => ({ id, label })) : [];
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
  sort: 'Order:',
  limit: 'Reviews per page:',
  cursor: 'Page:',
};

/** The form's name for a search parameter, for error messages; an unknown parameter by its own name. */
export function describeSearchField(name: string): string {
  return FIELD_LABELS[name] ?? `${name}:`;
}
