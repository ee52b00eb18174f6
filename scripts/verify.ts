/**
 * `npm run verify -- <url> [--key <vkey or file>] [--state <file>] [--accept-key <vkey>] [--deadline <s>]`:
 * checks, from the outside, that a reviews service publishes what its log says (issue 27 item 5, issue 40
 * items 1–2). Anyone can run it: it needs Node 24, zod, and the files docs/verification.md lists.
 * `npm run verify -- --proof <file> --review <json> --key <vkey>` checks one review's proof offline instead
 * (scripts/verify-proof.ts, issue 40 item 5).
 *
 * 1. The checkpoint `{url}/log/checkpoint` must carry a valid Ed25519 signature by the log's key: the one
 *    given with --key (trusted), else the one the site serves at `{url}/log/vkey` (said with a warning:
 *    whoever can change the site can change that key too).
 * 2. The entries in `{url}/log/tile/entries/…` must hash (RFC 6962) to the checkpoint's root, and every
 *    hash tile `{url}/log/tile/<L>/…` must be the one they make (verify/read-log.ts). Each entry must be
 *    one of the log's schema, and agree with the review's earlier entries (core/log/entry-history.ts).
 * 3. Each review in `{url}/reviews.json` must match its latest entry (verify/check-reviews.ts).
 * 4. The updates since the reader's last visit and the withdrawals are listed (verify/report.ts).
 * 5. The new tree must extend the checkpoint seen last time for this address (verify/history.ts).
 * Every file is read within its byte cap, a deadline per request and one for the run, and redirects only
 * within the site (verify/site-reader.ts); nothing a server sends is printed with its control characters.
 * Exit 0 when all holds, 1 naming each problem, 2 when the log cannot be read at all.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { checkEntryHistory } from '../core/log/entry-history.ts';
import type { LogEntry } from '../core/log/entry.ts';
import { MAX_VKEY_BYTES } from '../core/log/log-bounds.ts';
import { formatVerifierKey, parseVerifierKey, type NoteVerifier } from '../core/log/note.ts';
import { toPrintable } from '../core/text/printable.ts';
import { checkReviews, parseServedReviews } from './verify/check-reviews.ts';
import { checkExtends, defaultStateFile, readState, writeState } from './verify/history.ts';
import { readLog } from './verify/read-log.ts';
import { reportJobs, reportUpdates, reportWithdrawals } from './verify/report.ts';
import { createSiteReader, MAX_REVIEWS_JSON_BYTES, RUN_DEADLINE_MS, Unreadable, type SiteReader } from './verify/site-reader.ts';

const USAGE = 'Usage: npm run verify -- <url> [--key <vkey or file>] [--state <file>] [--accept-key <vkey>] [--deadline <seconds>] [--policy <tlog-policy file or url>]';

const say = (line: string) => console.log(toPrintable(line));
const warn = (line: string) => console.error(toPrintable(line));

async function readVerifier(site: SiteReader, key: string | undefined, logUrl: string): Promise<{ verifier: NoteVerifier; trusted: boolean }> {
  let text = key;
  if (key !== undefined && !key.includes('+')) {
    text = await readFile(key, 'utf8').catch((error: Error) => {
      throw new Unreadable(`the key file ${key} cannot be read: ${error.message}`);
    });
  }
  const trusted = text !== undefined;
  text ??= (await site.require(`${logUrl}vkey`, MAX_VKEY_BYTES)).toString('utf8');
  const parsed = parseVerifierKey(text);
  if (!parsed.ok) throw new Unreadable(`${trusted ? 'the key given with --key' : `${logUrl}vkey`} is not a verifier key: ${parsed.reason}`);
  return { verifier: parsed.value, trusted };
}

async function main(): Promise<number> {
  // One review's proof, offline: its own file, loaded only then.
  if (process.argv.includes('--proof')) return (await import('./verify-proof.ts')).verifyProofCommand(process.argv.slice(2));
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { key: { type: 'string' }, state: { type: 'string' }, 'accept-key': { type: 'string' }, deadline: { type: 'string' }, policy: { type: 'string' } },
  });
  const deadline = values.deadline === undefined ? RUN_DEADLINE_MS / 1000 : Number(values.deadline);
  if (positionals.length !== 1 || !/^https?:\/\//.test(positionals[0]!) || !(deadline > 0)) {
    console.error(USAGE);
    return 2;
  }
  const base = positionals[0]!.replace(/\/+$/, '');
  const logUrl = `${base}/log/`;
  const stateFile = values.state ?? defaultStateFile();
  const site = createSiteReader(deadline * 1000);
  const problems: string[] = [];

  // --policy (scripts/lib/verify-policy.ts): the log key and the witnesses the reader trusts.
  // Imported only for --policy, so a copy of verify without it still runs alone (docs/verification.md).
  const policing = values.policy === undefined ? undefined : await import('./lib/verify-policy.ts');
  const policy = values.policy === undefined ? undefined : await policing!.loadPolicy(values.policy);
  if (policy && !policy.ok) throw new Unreadable(policy.message);
  const { verifier, trusted } = await readVerifier(site, values.key ?? (policy && policing!.policyLogKey(policy.policy, `${base.replace(/^https?:\/\//, '')}/log`)), logUrl);
  if (!trusted) {
    warn(`warning: checking against the key the site itself serves (${logUrl}vkey): anyone who can change the site can change it. Pass --key with the key the owner publishes elsewhere.`);
  }
  const { note, checkpoint, tree, entries, complete } = await readLog(site, logUrl, verifier, problems);
  say(`Log ${checkpoint.origin}: ${checkpoint.size} entries, signed by ${formatVerifierKey(verifier)}.`);
  if (problems.length === 0) say('Tree: recomputed from the entry bundles, matches the checkpoint and every hash tile.');
  const decoded = entries.filter((e): e is LogEntry => e !== undefined);
  if (complete && decoded.length === entries.length) {
    const contradictions = checkEntryHistory(decoded);
    problems.push(...contradictions);
    if (contradictions.length === 0) say("Entries: each agrees with its review's earlier entries.");
  }
  if (policy && complete) await policing!.checkPolicy({ policy: policy.policy, note, checkpoint, tree, problems, print: say });

  const before = problems.length;
  const reviews = parseServedReviews(await site.require(`${base}/reviews.json`, MAX_REVIEWS_JSON_BYTES), problems);
  checkReviews(reviews, entries, problems);
  if (problems.length === before) say(`Reviews: all ${reviews.length} in ${base}/reviews.json match their latest entry.`);

  const state = await readState(stateFile);
  const seen = state.logs[base];
  // The history is checked only against a tree that is the checkpoint's.
  const extended = complete ? checkExtends({ seen, verifier, acceptKey: values['accept-key'], checkpoint, tree, problems }) : { ok: false as const };
  if (extended.ok) say(`History: ${extended.detail}.`);
  for (const line of reportUpdates(entries, extended.ok && seen !== undefined ? extended.oldSize : undefined)) say(line);
  for (const line of reportWithdrawals(entries)) say(line);
  if (decoded.length === entries.length) for (const line of reportJobs(decoded)) say(line);
  if (extended.ok) {
    state.logs[base] = { checkpoint: note, seen: new Date().toISOString(), key: formatVerifierKey(verifier) };
    await writeState(stateFile, state);
  }

  for (const problem of problems) warn(`problem: ${problem}`);
  say(problems.length === 0 ? 'OK: the service publishes what its log says.' : `FAILED: ${problems.length} problem(s).`);
  return problems.length === 0 ? 0 : 1;
}

try {
  process.exitCode = await main();
} catch (error) {
  if (!(error instanceof Unreadable)) throw error;
  warn(`Cannot verify: ${error.message}`);
  process.exitCode = 2;
}
