/**
 * Served reviews' C2SP tlog-proofs (proof-format.ts) against the checkpoint given: the build's, for the
 * reviews whose latest entry it logs (scripts/lib/review-log.ts links the others' from the build in
 * service), as the build writes them beside the log (docs/verification.md "A proof for every review"): the
 * proof of the review's latest entry, whose extra carries that entry's text and the review as logged
 * (proof-check.ts says how a reader computes the leaf from them).
 */
import { formatReviewProofExtra } from './proof-check.ts';
import { formatTlogProof } from './proof-format.ts';
import type { MerkleTree } from './merkle.ts';

/**
 * Each review's proof, by id. `entries`: the log's entries as bytes, in log order (the tree's leaves);
 * `latest`: each review's latest entry; `checkpoint`: the signed note (cosignatures included) of the tree.
 */
export function buildReviewProofs(input: {
  reviews: readonly Readonly<Record<string, unknown> & { id: string }>[];
  entries: readonly Uint8Array[];
  latest: ReadonlyMap<string, { index: number }>;
  tree: MerkleTree;
  checkpoint: string;
}): Map<string, Buffer> {
  const { tree, checkpoint } = input;
  if (tree.size !== input.entries.length) throw new RangeError(`a tree of ${tree.size} leaves does not hold ${input.entries.length} entries`);
  const decoder = new TextDecoder();
  const proofs = new Map<string, Buffer>();
  for (const review of input.reviews) {
    const state = input.latest.get(review.id);
    if (state === undefined) continue;
    const extra = formatReviewProofExtra(decoder.decode(input.entries[state.index]), review);
    proofs.set(review.id, Buffer.from(formatTlogProof({ extra, index: state.index, proof: tree.inclusionProof(state.index), checkpoint }), 'utf8'));
  }
  return proofs;
}
