/** Reviews since a date: newest first, so those dated on or after it are a prefix of the list. */
export function countSince(reviews: readonly { date: string }[], date: string): number {
  let lo = 0;
  let hi = reviews.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (reviews[mid]!.date >= date) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
