/**
 * core/log against published vectors: RFC 6962's reference tree (the certificate-transparency test data),
 * Go's golang.org/x/mod/sumdb/note test key and signature, RFC 8785's examples, C2SP tlog-tiles paths.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildLogFiles,
  canonicalizeJson,
  decodeEntryBundle,
  decodeLogEntry,
  digestReview,
  EMPTY_TREE_HASH,
  encodeEntryBundle,
  encodeTileIndex,
  formatPrivateKey,
  formatVerifierKey,
  generateSigner,
  hashTilesOf,
  LogEntrySchema,
  logOriginOf,
  MerkleTree,
  openLogFiles,
  openNote,
  parseCheckpointBody,
  parsePrivateKey,
  parseTilePath,
  parseVerifierKey,
  signNote,
  tilePath,
  verifyConsistency,
  verifyInclusion,
} from '../../core/log/index.ts';

const RFC6962_LEAVES = ['', '00', '10', '2021', '3031', '40414243', '5051525354555657', '606162636465666768696a6b6c6d6e6f'].map((h) => Buffer.from(h, 'hex'));
const RFC6962_ROOTS = [
  '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d',
  'fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125',
  'aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77',
  'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
  '4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4',
  '76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef',
  'ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c',
  '5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328',
];
const hex = (list: Buffer[]) => list.map((b) => b.toString('hex'));

describe('MerkleTree (RFC 6962)', () => {
  const tree = MerkleTree.fromEntries(RFC6962_LEAVES);

  it('hashes the empty tree as SHA-256 of nothing', () => {
    expect(new MerkleTree().rootHash().toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(EMPTY_TREE_HASH.toString('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it.each(RFC6962_ROOTS.map((root, i) => [i + 1, root]))('gives the reference root of the first %i leaves', (size, root) => {
    expect(tree.rootHash(size).toString('hex')).toBe(root);
  });

  it('gives the reference inclusion and consistency proofs', () => {
    expect(hex(tree.inclusionProof(0, 8))).toEqual([
      '96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7',
      '5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e',
      '6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4',
    ]);
    expect(hex(tree.inclusionProof(5, 8))).toEqual([
      'bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
    expect(hex(tree.consistencyProof(1, 8))).toEqual(hex(tree.inclusionProof(0, 8)));
    expect(hex(tree.consistencyProof(6, 8))).toEqual([
      '0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a',
      'ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0',
      'd37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7',
    ]);
  });

  it('proves every leaf and every prefix of a 70-leaf tree, and refuses a wrong one', () => {
    const big = MerkleTree.fromEntries(Array.from({ length: 70 }, (_, i) => Buffer.from(`entry ${i}`)));
    for (let size = 1; size <= 70; size++) {
      const root = big.rootHash(size);
      for (let i = 0; i < size; i++) expect(verifyInclusion(big.levels[0]![i]!, i, size, big.inclusionProof(i, size), root)).toBe(true);
      for (let old = 0; old <= size; old++) {
        expect(verifyConsistency(old, size, big.consistencyProof(old, size), big.rootHash(old), root)).toBe(true);
      }
    }
    expect(verifyInclusion(big.levels[0]![3]!, 4, 70, big.inclusionProof(3, 70), big.rootHash())).toBe(false);
    expect(verifyConsistency(10, 70, big.consistencyProof(10, 70), big.rootHash(11), big.rootHash())).toBe(false);
  });
});

describe('tiles (C2SP tlog-tiles)', () => {
  it('writes N in groups of three digits', () => {
    expect(encodeTileIndex(0)).toBe('000');
    expect(encodeTileIndex(1234067)).toBe('x001/x234/067');
    expect(tilePath({ level: 0, index: 1234067, width: 256 })).toBe('tile/0/x001/x234/067');
    expect(tilePath({ level: 'entries', index: 1000, width: 5 })).toBe('tile/entries/x001/000.p/5');
    expect(parseTilePath('tile/1/x001/000.p/5')).toEqual({ level: 1, index: 1000, width: 5 });
    expect(parseTilePath('tile/0/000.p/256')).toBeUndefined();
    expect(parseTilePath('tile/0/000.p/05')).toBeUndefined();
  });

  it.each([
    [0, []],
    [1, ['tile/0/000.p/1']],
    [255, ['tile/0/000.p/255']],
    [256, ['tile/0/000', 'tile/1/000.p/1']],
    [257, ['tile/0/000', 'tile/0/001.p/1', 'tile/1/000.p/1']],
    [65536, [...Array.from({ length: 256 }, (_, i) => `tile/0/${encodeTileIndex(i)}`), 'tile/1/000', 'tile/2/000.p/1']],
  ] as const)('lists the hash tiles Go lists for a tree of %i', (size, paths) => {
    expect(hashTilesOf(size).map(tilePath)).toEqual(paths);
  });

  it('prefixes each entry of a bundle with its length and reads it back', () => {
    const bundle = encodeEntryBundle([Buffer.from('ab'), Buffer.alloc(0), Buffer.from('c')]);
    expect(bundle.toString('hex')).toBe('0002616200000001' + '63');
    expect(decodeEntryBundle(bundle).map(String)).toEqual(['ab', '', 'c']);
    expect(() => decodeEntryBundle(bundle.subarray(0, 3))).toThrow(/ends inside an entry/);
  });
});

describe('signed notes (C2SP signed-note, Go sumdb/note vectors)', () => {
  const SIGNER = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
  const VERIFIER = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
  const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
  const SIGNED = `${TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

  it("signs as Go's note.Sign does and opens Go's note", () => {
    const signer = parsePrivateKey(SIGNER);
    if (!signer.ok) throw new Error(signer.reason);
    expect(formatPrivateKey(signer.value)).toBe(SIGNER);
    expect(formatVerifierKey(signer.value)).toBe(VERIFIER);
    expect(signNote(TEXT, signer.value)).toBe(SIGNED);
    const verifier = parseVerifierKey(VERIFIER);
    if (!verifier.ok) throw new Error(verifier.reason);
    expect(openNote(SIGNED, verifier.value)).toEqual({ ok: true, value: { text: TEXT, signatures: 1 } });
    expect(openNote(SIGNED.replace('cryptography', 'cryptografy'), verifier.value)).toMatchObject({ ok: false, reason: /does not verify/ });
  });

  it('refuses mangled keys', () => {
    expect(parseVerifierKey(VERIFIER.replace('c74f20a3', 'c74f20a4')).ok).toBe(false);
    expect(parseVerifierKey(VERIFIER.slice(0, -2)).ok).toBe(false);
    expect(parsePrivateKey(SIGNER.replace('PRIVATE+KEY+', '')).ok).toBe(false);
  });

  it('round-trips a fresh key', () => {
    const signer = generateSigner('example.com/reviews/log');
    const again = parsePrivateKey(formatPrivateKey(signer));
    expect(again.ok && formatVerifierKey(again.value)).toBe(formatVerifierKey(signer));
  });
});

describe('canonicalizeJson (RFC 8785)', () => {
  it('writes the RFC examples', () => {
    const input = JSON.parse(String.raw`{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/","literals":[null,true,false]}`);
    expect(canonicalizeJson(input)).toBe(String.raw`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`);
    const keys = JSON.parse(String.raw`{"\u20ac":1,"\r":2,"\ufb33":3,"1":4,"\ud83d\ude00":5,"\u0080":6,"\u00f6":7}`);
    expect(canonicalizeJson(keys)).toBe('{"\\r":2,"1":4,"\u0080":6,"\u00f6":7,"\u20ac":1,"\ud83d\ude00":5,"\ufb33":3}');
  });
});

describe('buildLogFiles / openLogFiles', () => {
  it('writes a log that opens again, and refuses one whose entries were changed', async () => {
    const origin = logOriginOf('https://example.com/reviews/');
    expect(origin).toBe('example.com/reviews/log');
    const signer = generateSigner(origin);
    const entries = Array.from({ length: 300 }, (_, i) =>
      Buffer.from(JSON.stringify({ action: 'publish', review_id: `r-${i}`, time: '2025-01-01T00:00:00Z', date: '2025-01-01', rating: 5, digest: 'A'.repeat(43) + '=' })),
    );
    const { files, checkpoint } = buildLogFiles({ origin, entries, signer });
    expect([...files.keys()].sort()).toEqual(['checkpoint', 'tile/0/000', 'tile/0/001.p/44', 'tile/1/000.p/1', 'tile/entries/000', 'tile/entries/001.p/44', 'vkey']);
    expect(parseCheckpointBody(files.get('checkpoint')!.toString().split('\n\n')[0] + '\n')).toEqual({ ok: true, value: checkpoint });
    const opened = await openLogFiles(async (p) => files.get(p), origin);
    expect(opened.ok === true && opened.value.decoded.length).toBe(300);
    const forged = new Map(files);
    forged.set('tile/entries/001.p/44', Buffer.from(forged.get('tile/entries/001.p/44')!.toString().replace('"rating":5', '"rating":1')));
    expect(await openLogFiles(async (p) => forged.get(p), origin)).toMatchObject({ ok: false, reason: /do not hash to/ });
    expect(await openLogFiles(async (p) => files.get(p), 'other.example/log')).toMatchObject({ ok: false });
    expect(await openLogFiles(async () => undefined, origin)).toEqual({ ok: 'absent' });
  });
});

describe('decodeLogEntry', () => {
  it('accepts exactly what LogEntrySchema accepts (its fast path is no looser), naming what is wrong', () => {
    const publish = { action: 'publish', review_id: 'r-1', time: '2025-01-01T00:00:00Z', date: '2025-01-01', rating: 5, digest: `${'A'.repeat(43)}=` };
    const withdraw = { action: 'withdraw', review_id: 'r-1', time: '2025-01-02T00:00:00.5Z', date: '2024-02-29', rating: 1, reason: 'spam' };
    const variants: unknown[] = [
      publish,
      withdraw,
      { ...publish, action: 'update' },
      { ...publish, extra: 1 },
      { ...publish, digest: undefined, reason: 'spam' },
      { ...publish, action: 'withdraw' },
      { ...withdraw, reason: 'bored' },
      { ...withdraw, reason: undefined, digest: publish.digest },
      { ...withdraw, action: 'publish' },
      { ...publish, review_id: 'R 1' },
      { ...publish, review_id: 7 },
      { ...publish, time: '2025-01-01T00:00:00+01:00' },
      { ...publish, time: '2025-01-01 00:00:00Z' },
      { ...publish, time: '2025-13-01T00:00:00Z' },
      { ...publish, date: '2023-02-29' },
      { ...publish, date: '2025-1-01' },
      { ...publish, rating: 0 },
      { ...publish, rating: 6 },
      { ...publish, rating: 4.5 },
      { ...publish, rating: '5' },
      { ...publish, digest: 'A'.repeat(44) },
      { ...publish, digest: `${'A'.repeat(42)}==` },
      [publish],
      null,
      'publish',
    ];
    for (const value of variants) {
      const decoded = decodeLogEntry(Buffer.from(JSON.stringify(value)));
      expect({ value, ok: decoded.ok }).toEqual({ value, ok: LogEntrySchema.safeParse(value).success });
      if (!decoded.ok) expect(decoded.reason).not.toBe('');
    }
    expect(decodeLogEntry(Buffer.from('{"action":'))).toEqual({ ok: false, reason: 'it is not JSON' });
  });
});

describe('digestReview', () => {
  it('hashes the RFC 8785 form of the review\'s own fields only', () => {
    const review = { id: 'r-1', rating: 1, date: '2025-03-01', text: 'Late, «rude».', title: null, author: 'Kim', source: 'google', verified: true, service_area: null, response: { text: 'Sorry.', date: '2025-03-02' } };
    const own = canonicalizeJson(review);
    expect(digestReview({ ...review, url: 'https://x.example/r', updated: '2026-01-01T00:00:00Z', aspects: [{ a: 1 }] })).toBe(createHash('sha256').update(own).digest('base64'));
    expect(digestReview({ ...review, source_url: 'https://g.example/1' })).not.toBe(digestReview(review));
  });
});
