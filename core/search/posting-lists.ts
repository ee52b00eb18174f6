/**
 * Posting lists: ascending review positions in an Int32Array. Positions follow the newest-first order
 * of the indexed array, so any intersection walked in ascending order is already in result order.
 */

export const EMPTY_LIST = new Int32Array(0);

/** First index in [from, list.length) whose value is >= target (list.length if none). */
export function lowerBound(list: Int32Array, target: number, from = 0): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The part of `list` whose positions lie in [lo, hi). */
export function restrictToRange(list: Int32Array, lo: number, hi: number): Int32Array {
  const start = lowerBound(list, lo);
  return list.subarray(start, lowerBound(list, hi, start));
}

/**
 * Like lowerBound, but gallops forward from `from`: cheap when the target is near, which it is when a
 * short driver list is probed against long lists in ascending order.
 */
export function seek(list: Int32Array, target: number, from: number): number {
  const length = list.length;
  if (from >= length || list[from]! >= target) return from;
  let below = from;
  let step = 1;
  let probe = from + 1;
  while (probe < length && list[probe]! < target) {
    below = probe;
    step <<= 1;
    probe = below + step;
  }
  let lo = below + 1;
  let hi = probe < length ? probe : length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Builds one ascending list per key from each position's keys; positions are visited in ascending order. */
export function buildPostingLists(count: number, keysAt: (pos: number) => readonly string[]): Map<string, Int32Array> {
  const grown = new Map<string, number[]>();
  for (let pos = 0; pos < count; pos++) {
    for (const key of new Set(keysAt(pos))) {
      let list = grown.get(key);
      if (list === undefined) grown.set(key, (list = []));
      list.push(pos);
    }
  }
  const lists = new Map<string, Int32Array>();
  for (const [key, list] of grown) lists.set(key, Int32Array.from(list));
  return lists;
}
