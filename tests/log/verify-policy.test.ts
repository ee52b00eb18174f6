/**
 * C2SP tlog-policy as `npm run verify -- --policy` reads it (core/log/policy.ts), and the comparison of
 * the site's checkpoint with what each witness of the policy serves at its monitoring path
 * (scripts/lib/verify-policy.ts), against a real HTTP server standing in for a witness.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asCosigner, cosignCheckpoint, formatCosignerKey } from '../../core/log/cosignature.ts';
import { formatCheckpointBody, formatVerifierKey, generateSigner, MerkleTree, signCheckpoint } from '../../core/log/index.ts';
import { checkQuorum, parseTlogPolicy } from '../../core/log/policy.ts';
import { checkPolicy, findCosigners } from '../../scripts/lib/verify-policy.ts';

const ORIGIN = 'reviews.gina.example/log';
const log = generateSigner(ORIGIN);
const w1 = asCosigner(generateSigner('w1.example/witness'));
const w2 = asCosigner(generateSigner('w2.example/witness'));
const entries = (n: number, salt = '') => Array.from({ length: n }, (_, i) => Buffer.from(`entry ${i}${i >= 8 ? salt : ''}`));
const cosigned = (size: number, salt = '', ...witnesses: (typeof w1)[]) => {
  const tree = MerkleTree.fromEntries(entries(size, salt));
  const checkpoint = { origin: ORIGIN, size, rootHash: tree.rootHash() };
  const note = signCheckpoint(checkpoint, log) + witnesses.map((w) => cosignCheckpoint(formatCheckpointBody(checkpoint), w, 1_800_000_000)).join('');
  return { tree, checkpoint, note };
};

let server: Server;
let base: string;
let monitored: string | undefined;

beforeAll(async () => {
  const path = `/w1/${createHash('sha256').update(ORIGIN).digest('hex')}/checkpoint`;
  server = createServer((req, res) => {
    if (req.url !== path || monitored === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end(monitored);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server?.close());

const policyText = () => `log ${formatVerifierKey(log)}\nwitness w1 ${formatCosignerKey(w1)} ${base}/w1\nwitness w2 ${formatCosignerKey(w2)}\ngroup any-one any w1 w2\nquorum any-one\n`;

describe('parseTlogPolicy', () => {
  it.each([
    ['no quorum line', `log ${formatVerifierKey(log)}\n`, /exactly one quorum line, not 0/],
    ['a group member defined later', `group g any w1\nwitness w1 ${formatCosignerKey(w1)}\nquorum g\n`, /line 1: w1 is not a witness or group defined on an earlier line/],
    ['a threshold above the members', `witness w1 ${formatCosignerKey(w1)}\ngroup g 2 w1\nquorum g\n`, /line 2: the threshold must be all, any or a number from 1 to 1/],
    ['two witnesses with one key', `witness a ${formatCosignerKey(w1)}\nwitness b ${formatCosignerKey(w1)}\nquorum a\n`, /line 2: a second witness with the same public key/],
    ['a log key as a witness key', `witness a ${formatVerifierKey(log)}\nquorum none\n`, /line 1: the key of witness a/],
    ['the name none', `witness none ${formatCosignerKey(w1)}\nquorum none\n`, /line 1: the name none is already taken/],
    ['a control character', `quorum none\x0b\n`, /line 1: a control character other than tab/],
  ])('refuses %s, saying where', (_name, text, problem) => {
    const parsed = parseTlogPolicy(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join('\n')).toMatch(problem);
  });

  it('reads comments, tabs and nested groups, and evaluates the quorum by threshold', () => {
    const parsed = parseTlogPolicy(`# mine\n\tlog ${formatVerifierKey(log)}\nwitness a ${formatCosignerKey(w1)}\nwitness b ${formatCosignerKey(w2)}\ngroup both all a b\ngroup q 1 both\nquorum q\n`);
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const { note } = cosigned(10, '', w1);
    expect([...findCosigners(parsed.value, note)]).toEqual(['a']);
    expect(checkQuorum(parsed.value, findCosigners(parsed.value, note))).toEqual({ met: false, missing: ['b'] });
    expect(checkQuorum(parsed.value, new Set(['a', 'b']))).toEqual({ met: true, missing: [] });
  });
});

describe('checkPolicy against a witness\'s monitoring checkpoint', () => {
  const check = async () => {
    const parsed = parseTlogPolicy(policyText());
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const site = cosigned(10, '', w1);
    const problems: string[] = [];
    const said: string[] = [];
    await checkPolicy({ policy: parsed.value, note: site.note, checkpoint: site.checkpoint, tree: site.tree, problems, print: (l) => said.push(l) });
    return { problems, said };
  };

  it('accepts a witness that saw a tree the site\'s extends', async () => {
    monitored = cosigned(6, '', w1).note;
    const { problems, said } = await check();
    expect(problems).toEqual([]);
    expect(said).toContain('Policy: the quorum (any-one) is met; cosigned by w1.');
    expect(said).toContain('  witness w1: has seen 6 entries, a tree the site\'s extends.');
  });

  it('names a split: the same size with another root, and a smaller tree the site\'s does not extend', async () => {
    monitored = cosigned(10, 'other', w1).note;
    expect((await check()).problems).toEqual([expect.stringMatching(/^witness w1 has cosigned another tree of 10 entries than the site's: a split view/)]);
    monitored = cosigned(9, 'other', w1).note;
    expect((await check()).problems).toEqual([expect.stringMatching(/^witness w1 has cosigned another tree of 9 entries/)]);
  });

  it('names a witness ahead of the site', async () => {
    monitored = cosigned(12, '', w1).note;
    expect((await check()).problems).toEqual([expect.stringMatching(/^witness w1 has cosigned a tree of 12 entries, larger than the 10 the site serves you/)]);
  });

  it('only reports a witness that serves nothing, or a checkpoint without its own cosignature', async () => {
    monitored = undefined;
    expect(await check()).toEqual({ problems: [], said: ['Policy: the quorum (any-one) is met; cosigned by w1.', '  witness w1: has cosigned nothing of this log yet.'] });
    monitored = cosigned(12, '', w2).note;
    expect((await check()).problems).toEqual([]);
  });
});
