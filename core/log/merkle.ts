/**
 * RFC 6962 §2.1 Merkle tree hashing with SHA-256, as C2SP tlog-tiles and Go's golang.org/x/mod/sumdb/tlog
 * use it: a leaf hash is SHA-256(0x00 || entry), an interior node SHA-256(0x01 || left || right), and the
 * empty tree's hash SHA-256(""). A tree of n leaves splits at the largest power of two below n.
 *
 * `MerkleTree` keeps every complete subtree hash, level by level (level k holds the hashes of the aligned
 * subtrees of 2^k leaves), which are exactly the hashes tlog tiles store; proofs (RFC 9162 §2.1.3, §2.1.4)
 * are built from them.
 */
import { hash } from 'node:crypto';

export const HASH_SIZE = 32;

// crypto.hash is the one-shot form: a tree of 100k leaves hashes 200k short inputs, where a Hash object
// per input costs several times the hashing itself.
const sha256 = (data: Uint8Array): Buffer => hash('sha256', data, 'buffer');

export function hashLeaf(entry: Uint8Array): Buffer {
  const input = Buffer.allocUnsafe(1 + entry.length);
  input[0] = 0;
  input.set(entry, 1);
  return sha256(input);
}

const nodeInput = Buffer.alloc(1 + 2 * HASH_SIZE, 1);

export function hashNode(left: Uint8Array, right: Uint8Array): Buffer {
  nodeInput.set(left, 1);
  nodeInput.set(right, 1 + HASH_SIZE);
  return sha256(nodeInput);
}

export const EMPTY_TREE_HASH: Buffer = sha256(new Uint8Array(0));

/** The largest power of two strictly below n (n ≥ 2). */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

export class MerkleTree {
  /** levels[k][i]: the hash of leaves [i·2^k, (i+1)·2^k). */
  readonly levels: Buffer[][] = [[]];
  /**
   * Hashes of ranges that are not stored subtrees (those along the tree's right edge), kept until the next
   * append: every inclusion proof of one tree shares them, and recomputing each made proofs for all 100k
   * leaves cost log² n hashes apiece.
   */
  private readonly edgeHashes = new Map<string, Buffer>();

  static fromLeafHashes(leafHashes: Iterable<Buffer>): MerkleTree {
    const tree = new MerkleTree();
    for (const h of leafHashes) tree.appendLeafHash(h);
    return tree;
  }

  static fromEntries(entries: Iterable<Uint8Array>): MerkleTree {
    const tree = new MerkleTree();
    for (const e of entries) tree.appendLeafHash(hashLeaf(e));
    return tree;
  }

  get size(): number {
    return this.levels[0]!.length;
  }

  append(entry: Uint8Array): void {
    this.appendLeafHash(hashLeaf(entry));
  }

  appendLeafHash(hash: Buffer): void {
    this.edgeHashes.clear();
    let level = 0;
    let h = hash;
    this.levels[0]!.push(h);
    // A new complete subtree closes at each level while the index at that level is odd.
    while (this.levels[level]!.length % 2 === 0) {
      const row = this.levels[level]!;
      h = hashNode(row[row.length - 2]!, row[row.length - 1]!);
      level += 1;
      (this.levels[level] ??= []).push(h);
    }
  }

  /** The hash of leaves [lo, hi) (RFC 6962 MTH of that range), built from the stored subtrees. */
  rangeHash(lo: number, hi: number): Buffer {
    if (hi > this.size || lo < 0 || lo > hi) throw new RangeError(`range [${lo}, ${hi}) outside a tree of ${this.size}`);
    const n = hi - lo;
    if (n === 0) return EMPTY_TREE_HASH;
    // An aligned power-of-two range is stored.
    if ((n & (n - 1)) === 0 && lo % n === 0) return this.levels[Math.log2(n)]![lo / n]!;
    const key = `${lo}:${hi}`;
    let found = this.edgeHashes.get(key);
    if (found === undefined) {
      const k = splitPoint(n);
      found = hashNode(this.rangeHash(lo, lo + k), this.rangeHash(lo + k, hi));
      this.edgeHashes.set(key, found);
    }
    return found;
  }

  /** The root hash of the tree's first `size` leaves. */
  rootHash(size = this.size): Buffer {
    return this.rangeHash(0, size);
  }

  /** RFC 9162 §2.1.3.1: the inclusion proof of leaf `index` in the tree of `size` leaves. */
  inclusionProof(index: number, size = this.size): Buffer[] {
    if (index < 0 || index >= size || size > this.size) throw new RangeError(`no leaf ${index} in a tree of ${size}`);
    const path = (m: number, lo: number, hi: number): Buffer[] => {
      const n = hi - lo;
      if (n === 1) return [];
      const k = splitPoint(n);
      return m < k ? [...path(m, lo, lo + k), this.rangeHash(lo + k, hi)] : [...path(m - k, lo + k, hi), this.rangeHash(lo, lo + k)];
    };
    return path(index, 0, size);
  }

  /** RFC 9162 §2.1.4.1: the consistency proof from the tree of `oldSize` leaves to the tree of `newSize`. */
  consistencyProof(oldSize: number, newSize = this.size): Buffer[] {
    if (oldSize < 0 || oldSize > newSize || newSize > this.size) throw new RangeError(`no consistency from ${oldSize} to ${newSize}`);
    if (oldSize === 0 || oldSize === newSize) return [];
    const subproof = (m: number, lo: number, hi: number, complete: boolean): Buffer[] => {
      const n = hi - lo;
      if (m === n) return complete ? [] : [this.rangeHash(lo, hi)];
      const k = splitPoint(n);
      return m <= k
        ? [...subproof(m, lo, lo + k, complete), this.rangeHash(lo + k, hi)]
        : [...subproof(m - k, lo + k, hi, false), this.rangeHash(lo, lo + k)];
    };
    return subproof(oldSize, 0, newSize, true);
  }
}

/**
 * The walk both verifications share (RFC 9162 §2.1.3.2 step 5, §2.1.4.2 step 7) from node `fn` of a tree
 * whose last node is `sn`: for each of `count` proof hashes, whether it is the left sibling (hashed before
 * the running hash) or the right one. Undefined when the proof does not end at the root.
 */
function walkProof(fn: number, sn: number, count: number): ('left' | 'right')[] | undefined {
  const sides: ('left' | 'right')[] = [];
  for (let i = 0; i < count; i++) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      sides.push('left');
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      sides.push('right');
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? sides : undefined;
}

/** RFC 9162 §2.1.3.2: does `proof` show the leaf hash at `index` in a tree of `size` with `root`? */
export function verifyInclusion(leafHash: Uint8Array, index: number, size: number, proof: readonly Uint8Array[], root: Uint8Array): boolean {
  if (index < 0 || index >= size) return false;
  const sides = walkProof(index, size - 1, proof.length);
  if (sides === undefined) return false;
  let r: Buffer = Buffer.from(leafHash);
  proof.forEach((p, i) => {
    r = sides[i] === 'left' ? hashNode(p, r) : hashNode(r, p);
  });
  return r.equals(root);
}

/** RFC 9162 §2.1.4.2: does `proof` show the tree (`oldSize`, `oldRoot`) is a prefix of (`newSize`, `newRoot`)? */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  proof: readonly Uint8Array[],
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
): boolean {
  if (oldSize > newSize || oldSize < 0) return false;
  if (oldSize === newSize) return proof.length === 0 && Buffer.from(oldRoot).equals(newRoot);
  if (oldSize === 0) return proof.length === 0;
  let path = [...proof];
  // A power-of-two old tree is itself a node of the new one: its root starts the path.
  if ((oldSize & (oldSize - 1)) === 0) path = [oldRoot, ...path];
  if (path.length === 0) return false;
  let fn = oldSize - 1;
  let sn = newSize - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  const sides = walkProof(fn, sn, path.length - 1);
  if (sides === undefined) return false;
  let fr: Buffer = Buffer.from(path[0]!);
  let sr: Buffer = Buffer.from(path[0]!);
  path.slice(1).forEach((c, i) => {
    if (sides[i] === 'left') {
      fr = hashNode(c, fr);
      sr = hashNode(c, sr);
    } else {
      sr = hashNode(sr, c);
    }
  });
  return fr.equals(oldRoot) && sr.equals(newRoot);
}
