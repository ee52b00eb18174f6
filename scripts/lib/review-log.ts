/**
 * The build's review log step (docs/log.md): find the key and the last published log, append what
 * this build changes, and write the log's files into the new build. It never starts a second history for
 * an address that has one: a log it cannot continue is a refusal that says what to do.
 *
 * - The key: LOG_SIGNING_KEY, else `DATA_DIR/log-keys/<origin>` (mode 0600), else a new one, saved only
 *   once the build is in place. The demo content signs with a fixed, public key, so a demo log is never
 *   taken for an owner's.
 * - The last log: the current build's `log/` on disk, else the copy `npm run restore` put in
 *   `DATA_DIR/last-log/`, else `{PUBLIC_URL}/log/` (a fresh machine), each checked against its signature
 *   and its tree.
 * - A new key only where no log can exist (review-log-decision.ts): gathered here in one step
 *   (`gatherReviewLogFacts`), decided by one pure function (`decideReviewLog`).
 */
import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import path from 'node:path';
import {
  buildLogFiles,
  CHECKPOINT_PATH,
  digestReview,
  digestReviewParts,
  encodeLogEntry,
  formatLogTime,
  formatPrivateKey,
  formatVerifierKey,
  generateSigner,
  logOriginOf,
  openLogFiles,
  parsePrivateKey,
  planLogAppend,
  signerFromSeed,
  readLogTimes,
  replayJobs,
  replayLog,
  type LogEntry,
  type LogFileReader,
  type NoteSigner,
  type OpenedLog,
} from '../../core/log/index.ts';
import { getLatestChange } from '../../core/dates/latest-change.ts';
import { findLastGoodBuild, readManifest } from '../../core/publishing/build-folders-fs.ts';
import type { PublishedReview } from '../../core/schemas/published.ts';
import type { MerkleTree } from '../../core/log/merkle.ts';
import { splitNote } from '../../core/log/proof-check.ts';
import { buildReviewProofs } from '../../core/log/review-proofs.ts';
import { logJobsShardPath, logProofPath, PATHS } from '../../core/urls.ts';
import { buildJobLookup } from '../../core/log/job-lookup.ts';
import { decideReviewLog, type ReviewLogFacts } from './review-log-decision.ts';
import { demoJobKey, jobForLog, jobKeyFileOf, readJobKey, saveJobKey, type JobKey } from './job-key.ts';
import { readJobTies, type JobTie } from '../../core/log/job-summary.ts';
import type { JobContent } from '../../core/schemas/content.ts';
import { fetchBounded } from './bounded-fetch.ts';
import type { CorrectionReason, WithdrawReason } from '../../core/schemas/content.ts';
import { DEFAULT_SOURCE } from '../../core/content/publish-reviews.ts';

export const LOG_DIR = 'log';
const REMOTE_TIMEOUT_MS = 10_000;
const REMOTE_DEADLINE_MS = 120_000;

export type ReviewLogOptions = {
  publicUrl: string;
  /** The build folder in service now (its `log/` is the last log on this machine). */
  outDir: string;
  dataDir: string;
  /** LOG_SIGNING_KEY. */
  signingKey?: string | undefined;
  /** LOG_JOBS_KEY. */
  jobsKey?: string | undefined;
  demo: boolean;
  now?: () => Date;
  /** Reads the published log over HTTP; global fetch by default. */
  fetch?: typeof fetch;
  /** `--new-log`: the owner says no log was ever published at PUBLIC_URL (docs/log.md). */
  newLog?: boolean;
  /** corrections.json: why the owner changed a review's rating (core/log/plan-append.ts). */
  corrections?: ReadonlyMap<string, CorrectionReason>;
  /** The content's jobs (jobs/*.json), and the job id of each review tied to one. */
  jobs?: readonly JobContent[];
  reviewJobs?: ReadonlyMap<string, string>;
};

export type ReviewLogStep =
  | {
      ok: true;
      /** Each published review's time in the log, by id (its `updated` before the floor). */
      times: Map<string, string>;
      /** Each published review's tie to a job (core/log/job-summary.ts), by id. */
      ties: Map<string, JobTie>;
      entries: LogEntry[];
      /** The entries' bytes, as the log holds them. */
      bytes: Uint8Array[];
      added: number;
      /** Writes the log's files into the new build folder; the tree, for the witnesses' consistency proofs. */
      write(buildDir: string, cosign?: (note: string, tree: MerkleTree) => Promise<string>): Promise<{ tree: MerkleTree }>;
      /** Saves a new key in DATA_DIR once the build is in place; returns what to tell the owner, if anything. */
      commit(): Promise<string | undefined>;
    }
  | { ok: false; message: string };

/** Where the key of `origin` is kept in DATA_DIR. */
export function logKeyFileOf(dataDir: string, origin: string): string {
  return path.join(logKeysDirOf(dataDir), encodeURIComponent(origin));
}

/** The folder of DATA_DIR that holds the logs' keys, one file per origin (logKeyFileOf). */
export function logKeysDirOf(dataDir: string): string {
  return path.join(dataDir, 'log-keys');
}

/** The demo's key: public on purpose (the demo is an example), derived from the origin so every demo build agrees. */
function demoSigner(origin: string): NoteSigner {
  return signerFromSeed(origin, createHash('sha256').update(`reviews demo log\n${origin}`).digest());
}

async function readKeyFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    // ENOTDIR: DATA_DIR is not a folder (the store then says so); no key file there.
    if (['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}

// The log's files are read and written synchronously: a build is a batch step (nothing else waits on
// its event loop), and a log of 10,000 entries is 80 small files, where each asynchronous call costs more
// than the copy itself on a loaded machine.
function diskReader(dir: string): LogFileReader {
  return async (rel) => {
    try {
      return readFileSync(path.join(dir, rel));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw error;
    }
  };
}

/**
 * The published log read over HTTP, each file held to its bounds (core/log/log-bounds.ts, bounded-fetch.ts):
 * REMOTE_TIMEOUT_MS a file, REMOTE_DEADLINE_MS the whole log, redirects within the origin only.
 */
function remoteReader(base: string, fetchImpl: typeof fetch): LogFileReader {
  const deadline = AbortSignal.timeout(REMOTE_DEADLINE_MS);
  return async (rel, maxBytes) => {
    const got = await fetchBounded(`${base}/${rel}`, { maxBytes, timeoutMs: REMOTE_TIMEOUT_MS, signal: deadline, fetch: fetchImpl });
    if (got.ok === false) throw new Error(got.reason);
    return got.ok === 'absent' ? undefined : new Uint8Array(got.bytes);
  };
}

/** Where a restore puts the last published log back (`npm run restore`), for a machine with no build yet. */
export function lastLogDirOf(dataDir: string): string {
  return path.join(dataDir, 'last-log');
}

/**
 * The step's one look at the world: the key (LOG_SIGNING_KEY or the key file), the last log on this
 * machine (the served build's `log/`, else the copy a restore put back), the log at PUBLIC_URL (asked only
 * when this machine has no log of the owner's) and the retired keys. `decideReviewLog` then decides.
 */
export async function gatherReviewLogFacts(options: ReviewLogOptions): Promise<ReviewLogFacts & { localLogDir: string | undefined }> {
  const origin = logOriginOf(options.publicUrl);
  const keyFile = logKeyFileOf(options.dataDir, origin);
  const remoteBase = `${options.publicUrl.replace(/\/+$/, '')}/${LOG_DIR}`;
  const demoKey = formatVerifierKey(demoSigner(origin));
  const isDemo = (log: OpenedLog) => formatVerifierKey(log.verifier) === demoKey;
  const base = { origin, publicUrl: options.publicUrl, demo: options.demo, newLog: options.newLog ?? false, keyFile, remoteBase };

  let key: ReviewLogFacts['key'] = { state: 'absent' };
  if (!options.demo) {
    const fromEnv = options.signingKey !== undefined;
    const text = fromEnv ? options.signingKey : await readKeyFile(keyFile);
    const source = fromEnv ? 'LOG_SIGNING_KEY' : keyFile;
    if (text !== undefined) {
      const parsed = parsePrivateKey(text);
      if (!parsed.ok) key = { state: 'unreadable', source, reason: parsed.reason };
      else if (parsed.value.name !== origin) key = { state: 'other-origin', source, name: parsed.value.name };
      else key = { state: 'found', signer: parsed.value, source };
    }
  }

  // The build in service; when DIST_DIR went missing, the last good build the next swap keeps from;
  // with neither, the last log a restore put back.
  const served = (await readManifest(options.outDir)) ? options.outDir : ((await findLastGoodBuild(options.outDir))?.dir ?? options.outDir);
  const servedLog = path.join(served, LOG_DIR);
  const localDir = existsSync(path.join(servedLog, 'checkpoint')) || !existsSync(path.join(lastLogDirOf(options.dataDir), 'checkpoint')) ? servedLog : lastLogDirOf(options.dataDir);
  // A build for another address (PUBLIC_URL changed) holds another log, not this address's history.
  const localOrigin = (await readFile(path.join(localDir, 'checkpoint'), 'utf8').catch(() => '')).split('\n', 1)[0];
  const opened = localOrigin !== '' && localOrigin !== origin ? ({ ok: 'absent' } as const) : await openLogFiles(diskReader(localDir), origin);
  const local: ReviewLogFacts['local'] =
    opened.ok === true ? { state: 'found', found: { log: opened.value, demo: isDemo(opened.value) } }
    : opened.ok === false ? { state: 'damaged', dir: localDir, reason: opened.reason }
    : { state: 'absent' };

  let remote: ReviewLogFacts['remote'] = { state: 'not-asked' };
  if (!options.demo && (local.state === 'absent' || (local.state === 'found' && local.found.demo))) {
    const signer = key.state === 'found' ? key.signer : undefined;
    const answer = await openLogFiles(remoteReader(remoteBase, options.fetch ?? fetch), origin, signer).catch((error: Error) => ({ ok: 'unreachable' as const, reason: error.cause instanceof Error ? error.cause.message : error.message }));
    remote =
      answer.ok === true ? { state: 'found', found: { log: answer.value, demo: isDemo(answer.value) } }
      : answer.ok === false ? { state: 'damaged', reason: answer.reason }
      : answer.ok === 'unreachable' ? { state: 'unreachable', reason: answer.reason }
      : { state: 'absent' };
  }
  const retired = ((await readKeyFile(`${keyFile}.previous`)) ?? '').split('\n').map((line) => line.trim()).filter(Boolean);
  return { ...base, key, local, remote, retired, localLogDir: local.state === 'found' ? localDir : undefined };
}

/** The names on a signed note's signature lines: the log's, and each witness's that cosigned it. */
const signatureNames = (note: string) => new Set(splitNote(note)?.signatures.map((s) => s.name));

/**
 * The size of the log whose build holds proofs this build may link (its entries below it are unchanged):
 * the log opened from the build in service, signed by this build's key (a rotation makes every proof
 * again), and only when the new checkpoint has no witness the served one lacked: after an outage of a
 * witness, the proofs made meanwhile lack its cosignature, and every proof is made again once.
 */
function heldProofsSize(facts: Awaited<ReturnType<typeof gatherReviewLogFacts>>, previous: OpenedLog | undefined, key: NoteSigner, checkpoint: string): number {
  const { localLogDir } = facts;
  if (localLogDir === undefined || previous === undefined || facts.local.state !== 'found' || previous !== facts.local.found.log) return 0;
  if (formatVerifierKey(previous.verifier) !== formatVerifierKey(key)) return 0;
  const served = signatureNames(readFileSync(path.join(localLogDir, CHECKPOINT_PATH), 'utf8'));
  if ([...signatureNames(checkpoint)].some((name) => !served.has(name))) return 0;
  // Its entries, not its tree's size: the tree is extended in place by the new log's (buildLogFiles).
  return previous.entries.length;
}

/**
 * The content's jobs as the log says them, with the job key they are derived from: the demo's, else the
 * one in DATA_DIR, else a new one (saved with the build). A log that holds jobs is never continued with a
 * new job key: every job would be logged again and no receipt printed before would match.
 */
async function prepareJobs(options: ReviewLogOptions, keyFile: string, origin: string, previous: OpenedLog | undefined) {
  const state = replayJobs(previous?.decoded ?? []);
  const content = options.jobs ?? [];
  if (content.length === 0 && state.size === 0) return { ok: true as const, key: undefined, forLog: [], state, locators: new Map<string, string>() };
  const file = jobKeyFileOf(keyFile);
  let key: JobKey;
  if (options.demo) key = demoJobKey(origin);
  else {
    const read = await readJobKey(file, options.jobsKey);
    const source = options.jobsKey === undefined ? file : 'LOG_JOBS_KEY';
    if (!read.ok) return { ok: false as const, message: `The job key in ${source} cannot be read: ${read.reason}. Put it back from a backup (npm run restore -- <backup made by npm run backup>), then build again.` };
    if (read.key.created && state.size > 0) {
      return { ok: false as const, message: `The review log for ${origin} holds ${state.size} jobs, but this machine has no job key (${file}, or LOG_JOBS_KEY): receipts could not be printed again and every job would be logged twice. Put the key back from a backup (npm run restore -- <backup made by npm run backup>), or set LOG_JOBS_KEY, then build again.` };
    }
    key = read.key;
  }
  const forLog = content.map((job) => jobForLog(key, job));
  return { ok: true as const, key, forLog, state, locators: new Map(content.map((job, i) => [job.id, forLog[i]!.locator])) };
}

export async function prepareReviewLog(
  reviews: readonly PublishedReview[],
  reasons: ReadonlyMap<string, WithdrawReason>,
  options: ReviewLogOptions,
): Promise<ReviewLogStep> {
  const facts = await gatherReviewLogFacts(options);
  const decision = decideReviewLog(facts);
  if (!decision.ok) return decision;
  const { origin, keyFile } = facts;
  const { previous } = decision;
  const signer = decision.demoSigner ? demoSigner(origin) : decision.signer;
  const created = signer === undefined;
  const key = signer ?? generateSigner(origin);

  const jobs = await prepareJobs(options, keyFile, origin, previous);
  if (!jobs.ok) return jobs;
  const published = reviews.map((r) => {
    const jobId = options.reviewJobs?.get(r.id);
    return { id: r.id, date: r.date, rating: r.rating, digest: digestReview(r), changed: getLatestChange(r), direct: r.source === DEFAULT_SOURCE, parts: () => digestReviewParts(r), job: jobId === undefined ? undefined : jobs.locators.get(jobId) };
  });
  const state = replayLog(previous?.decoded ?? []);
  const added = planLogAppend({
    state,
    published,
    reasons,
    corrections: options.corrections,
    jobs: jobs.forLog,
    jobState: jobs.state,
    size: previous?.decoded.length ?? 0,
    now: formatLogTime((options.now ?? (() => new Date()))()),
    datedSeed: options.demo,
  });
  const entries = [...(previous?.decoded ?? []), ...added];
  const bytes = [...(previous?.entries ?? []), ...added.map(encodeLogEntry)];

  return {
    ok: true,
    times: readLogTimes(state, added),
    ties: readJobTies(entries),
    entries,
    bytes,
    added: added.length,
    async write(buildDir, cosign) {
      const { files, tree } = buildLogFiles({ origin, entries: bytes, signer: key, tree: previous?.tree });
      // The witnesses' cosignatures (the caller's round trip, scripts/lib/witness-cosignatures.ts), before the proofs carry them.
      if (cosign) files.set(CHECKPOINT_PATH, Buffer.from(await cosign(files.get(CHECKPOINT_PATH)!.toString('utf8'), tree), 'utf8'));
      // Each folder made once (see diskReader for why synchronously).
      const made = new Set<string>();
      const place = (rel: string, data: Uint8Array | undefined, from?: string) => {
        const file = path.join(buildDir, LOG_DIR, rel);
        const dir = path.dirname(file);
        if (!made.has(dir)) mkdirSync(dir, { recursive: true });
        made.add(dir);
        if (from !== undefined) linkSync(from, file);
        else writeFileSync(file, data!);
      };
      for (const [rel, data] of files) place(rel, data);
      // The receipt page's look-ups (core/log/job-lookup.ts), from the entries alone.
      for (const [shard, text] of buildJobLookup(entries)) place(logJobsShardPath(shard).slice(PATHS.logPrefix.length), Buffer.from(text, 'utf8'));
      // Each served review's proof (core/log/review-proofs.ts), against the checkpoint of the build that logged
      // its latest entry. One the build in service holds (an entry older than its log) is linked, not made
      // again: a publish then writes a file per changed review, not one per review (a new file cost 0.04 to
      // 0.4 ms here, a link 0.01 ms).
      const latest = replayLog(entries);
      const checkpoint = files.get(CHECKPOINT_PATH)!.toString('utf8');
      const heldSize = heldProofsSize(facts, previous, key, checkpoint);
      const toMake: typeof reviews[number][] = [];
      for (const review of reviews) {
        const state = latest.get(review.id);
        if (state === undefined) continue;
        const rel = logProofPath(review.id).slice(PATHS.logPrefix.length);
        const held = path.join(facts.localLogDir ?? '', rel);
        if (state.index < heldSize && existsSync(held)) {
          try {
            place(rel, undefined, held);
            continue;
          } catch {
            // No hard links here (another file system, one without them): the proof is made instead.
          }
        }
        toMake.push(review);
      }
      for (const [id, proof] of buildReviewProofs({ reviews: toMake, entries: bytes, latest, tree, checkpoint })) place(logProofPath(id).slice(PATHS.logPrefix.length), proof);
      // The witnesses are asked afterwards, by the build (scripts/lib/witness-cosignatures.ts), with this tree.
      return { tree };
    },
    async commit() {
      if (jobs.key?.created && !options.demo) await saveJobKey(jobKeyFileOf(keyFile), jobs.key);
      if (!created || options.demo) return undefined;
      await mkdir(path.dirname(keyFile), { recursive: true, mode: 0o700 });
      await replaceFile(keyFile, `${formatPrivateKey(key)}\n`, { mode: 0o600 });
      return `Created the review log's signing key for ${origin} in ${keyFile} (verifier key ${formatVerifierKey(key)}). Back this file up: without it no later build can continue the log (docs/log.md).`;
    },
  };
}
