/** The one sort order of published reviews: newest first, `date` descending, then `id` ascending. */
export function compareNewestFirst(a: { date: string; id: string }, b: { date: string; id: string }): number {
  if (a.date !== b.date) return a.date < b.date ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
