/**
 * `npm run verify` reading what the signed entries say (issue 40 items 1–2): a log signed by its own key
 * whose entries lie about a review's past, or carry escape sequences, fails; the updates since the
 * reader's last visit are listed with their ratings; a key rotation is one step for the reader. Each log
 * is written by core/log and served by a plain static server; the command runs as a user runs it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildLogFiles, digestReview, digestReviewParts, encodeLogEntry, formatVerifierKey, generateSigner, type LogEntry, type NoteSigner } from '../../core/log/index.ts';
import { runScript } from '../helpers/run-script.ts';
import { startStaticServer, type StaticServer } from '../helpers/static-server.ts';

const ORIGIN = 'reviews.example.com/log';
const signer = generateSigner(ORIGIN);
const T1 = '2026-01-02T03:04:05Z';
const T2 = '2026-02-03T04:05:06Z';
/** Four runs of a child process each: more than the default 30 s on a loaded machine. */
const TIMEOUT_MS = 180_000;

const review = (id: string, rating: number, text: string, response: object | null = null) => ({
  id, rating, date: '2023-04-12', text, title: null, author: 'Robin', source: 'direct', verified: true,
  technicians: [], services: [], service_area: null, response, url: `https://reviews.example.com/reviews/2023/04/#${id}`,
});
type Review = ReturnType<typeof review>;
const published = (r: Review) => ({ review_id: r.id, date: r.date, rating: r.rating, digest: digestReview(r), ...digestReviewParts(r) });
const publish = (r: Review, time = T1): LogEntry => ({ action: 'publish', time, ...published(r) });

const BAD = review('r-1', 2, 'Late, and the tap still drips.', { text: 'Sorry, we will come back.', date: '2023-04-13' });
const GOOD = review('r-2', 4, 'Fine.');

let work: string;
let site: string;
let server: StaticServer;

async function writeSite(entries: readonly (LogEntry | object)[], reviews: readonly object[], key: NoteSigner = signer) {
  await rm(site, { recursive: true, force: true });
  const bytes = entries.map((e) => ('digest' in e || 'reason' in e ? encodeLogEntry(e as LogEntry) : Buffer.from(JSON.stringify(e))));
  const { files } = buildLogFiles({ origin: ORIGIN, entries: bytes, signer: key });
  for (const [p, data] of files) {
    await mkdir(path.dirname(path.join(site, 'log', p)), { recursive: true });
    await writeFile(path.join(site, 'log', p), data);
  }
  await writeFile(path.join(site, 'reviews.json'), JSON.stringify({ reviews }));
}

function verify(state: string, args: string[] = []) {
  return runScript(process.execPath, ['scripts/verify.ts', server.url, '--state', path.join(work, state), ...args], { env: { PATH: process.env.PATH ?? '' } });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'verify-entries-'));
  site = path.join(work, 'site');
  await mkdir(site);
  server = await startStaticServer(site);
});

afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm run verify reads what the entries say', () => {
  it('names a 2-star review rewritten as a 5-star one, with its old and new rating, among the updates since the last visit', async () => {
    await writeSite([publish(BAD), publish(GOOD)], [BAD, GOOD]);
    const first = await verify('rewrite.json');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Updates in the whole log: 0, 0 of them changing a rating.');

    const rewritten = { ...BAD, rating: 5, text: 'Great work, fast and friendly. Would recommend!', response: null };
    const update: LogEntry = { action: 'update', time: T2, ...published(rewritten), change: 'correction', previous_rating: 2, reason: 'other' };
    await writeSite([publish(BAD), publish(GOOD), update], [rewritten, GOOD]);
    const second = await verify('rewrite.json');
    expect(second.stderr).toBe('warning: checking against the key the site itself serves (' + server.url + '/log/vkey): anyone who can change the site can change it. Pass --key with the key the owner publishes elsewhere.\n');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      'Updates since your last visit (entries 2–2): 1, 1 of them changing a rating.\n' +
        "  entry 2, 2026-02-03T04:05:06Z: review r-1 of 2023-04-12, rating 2 → 5, words changed, reply changed; the owner's correction, reason: other\n",
    );
    // Seen once, an update is not news the next time.
    expect((await verify('rewrite.json')).stdout).toContain('Updates since your last visit: 0, 0 of them changing a rating.');
  }, TIMEOUT_MS);

  it('fails a signed withdrawal that misstates the review\'s rating and date', async () => {
    const lie: LogEntry = { action: 'withdraw', review_id: 'r-1', time: T2, date: '2020-01-01', rating: 5, reason: 'duplicate' };
    await writeSite([publish(BAD), publish(GOOD), lie], [GOOD]);
    const run = await verify('withdrawal.json');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('problem: entry 2 says review r-1 is of 2020-01-01, but it was published as a review of 2023-04-12');
    expect(run.stderr).toContain('problem: entry 2 withdraws review r-1 as a 5-star review, but its last published rating was 2');
  }, TIMEOUT_MS);

  it.each([
    ['a second publish of a live review', [publish(BAD), publish(GOOD), publish(BAD, T2)], 'problem: entry 2 publishes review r-1 a second time, with no withdrawal since the first'],
    ['times going back', [publish(BAD, T2), publish(GOOD, T1)], 'problem: entry 1 (publish of r-2) is dated 2026-01-02T03:04:05Z, before the entry ahead of it: times went back'],
    [
      'an update that misstates the rating it replaced',
      [publish(BAD), publish(GOOD), { action: 'update', time: T2, ...published({ ...BAD, rating: 5 }), change: 'correction', previous_rating: 4, reason: 'other' }],
      'problem: entry 2 says review r-1 was rated 4 before, but its last published rating was 2',
    ],
  ] as const)('fails %s', async (_name, entries, problem) => {
    const served = new Map<string, object>([[BAD.id, BAD], [GOOD.id, GOOD]]);
    await writeSite(entries, [...served.values()]);
    const run = await verify(`${_name}.json`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(problem);
  }, TIMEOUT_MS);

  it('prints no control character an entry or the site sends', async () => {
    const escape = '\u001b[8m';
    const hidden = { action: 'withdraw', review_id: 'r-1', time: T2, date: '2023-04-12', rating: 2, reason: `duplicate${escape}` };
    await writeSite([publish(BAD), publish(GOOD), hidden], [GOOD, { ...GOOD, id: `r-9${escape}\r` }]);
    const run = await verify('escape.json');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('problem: entry 2 is not an entry of this log');
    expect(run.stderr).toContain('problem: review r-9\\u001b[8m\\u000d is served but has no entry in the log');
    // Only line ends: no escape, no carriage return, nothing else below U+0020.
    expect(`${run.stdout}${run.stderr}`.replaceAll('\n', '')).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  }, TIMEOUT_MS);

  it('follows a key rotation the reader accepts once, and says so on every run until then', async () => {
    await writeSite([publish(BAD), publish(GOOD)], [BAD, GOOD]);
    expect((await verify('rotation.json')).code).toBe(0);
    const next = generateSigner(ORIGIN);
    const grown = [publish(BAD), publish(GOOD), publish(review('r-3', 5, 'Spotless.'), T2)];
    await writeSite(grown, [BAD, GOOD, review('r-3', 5, 'Spotless.')], next);
    const changed = `problem: the log's key changed from ${formatVerifierKey(signer)}, seen last time, to ${formatVerifierKey(next)}. If the owner announced this change where you trust them, run once with --accept-key '${formatVerifierKey(next)}'`;
    for (let run = 0; run < 2; run++) {
      const refused = await verify('rotation.json');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(changed);
    }
    const accepted = await verify('rotation.json', ['--accept-key', formatVerifierKey(next)]);
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toContain(`History: extends the checkpoint of 2 entries seen last time (consistency proof of 1 hashes); the key change from ${formatVerifierKey(signer)} is accepted.`);
    expect((await verify('rotation.json')).code).toBe(0);
  }, TIMEOUT_MS);
});
