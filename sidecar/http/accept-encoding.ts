/**
 * Picks a content coding from Accept-Encoding (RFC 9110 §12.5.3): the highest q-value wins, `q=0`
 * refuses a coding, `*` stands for codings not listed, and on ties brotli beats gzip beats identity.
 */
import type { Encoding } from '../../core/publishing/manifest.ts';

const PREFERENCE: readonly (Encoding | 'identity')[] = ['br', 'gzip', 'identity'];

/** Clients send a handful of distinct headers: each is parsed once (up to this many, this long, are kept). */
const PARSED_LIMIT = 256;
const PARSED_LENGTH = 256;
const parsed = new Map<string, ReadonlyMap<string, number>>();

export function negotiateEncoding(header: string | undefined, available: readonly Encoding[]): Encoding | 'identity' {
  if (!header) return 'identity';
  let weights = parsed.get(header);
  if (weights === undefined) {
    weights = parseWeights(header);
    if (parsed.size >= PARSED_LIMIT) parsed.clear();
    if (header.length <= PARSED_LENGTH) parsed.set(header, weights);
  }
  const weightOf = (coding: string) =>
    weights.get(coding) ?? (coding === 'identity' ? (weights.get('*') === 0 ? 0 : 0.001) : (weights.get('*') ?? 0));
  let best: Encoding | 'identity' = 'identity';
  let bestWeight = -1;
  for (const coding of PREFERENCE) {
    if (coding !== 'identity' && !available.includes(coding)) continue;
    const w = weightOf(coding);
    if (w > 0 && w > bestWeight) {
      best = coding;
      bestWeight = w;
    }
  }
  return best;
}

function parseWeights(header: string): ReadonlyMap<string, number> {
  const weights = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/.exec(p);
      if (m) q = Number(m[1]);
    }
    weights.set(name.trim() === 'x-gzip' ? 'gzip' : name.trim(), q);
  }
  return weights;
}
