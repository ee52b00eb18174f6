/**
 * The build's review log step (docs/log.md): find the key and the last published log, append what
 * this build changes, and write the log's files into the new build. It never starts a second history for
 * an address that has one: a log it cannot continue is a refusal that says what to do.
 *
 * - The key: LOG_SIGNING_KEY, else `DATA_DIR/log-keys/<origin>` (mode 0600), else a new one, saved only
 *   once the build is in place. The demo content signs with a fixed, public key, so a demo log is never
 *   taken for an owner's.
 * - The last log: the current build's `log/` on disk, else `{PUBLIC_URL}/log/` (a fresh machine), each
 *   checked against its signature and its tree.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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
import { buildReviewProofs } from '../../core/log/review-proofs.ts';
import { logProofPath, PATHS } from '../../core/urls.ts';
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
  demo: boolean;
  now?: () => Date;
  /** Reads the published log over HTTP; global fetch by default. */
  fetch?: typeof fetch;
  /** corrections.json: why the owner changed a review's rating (core/log/plan-append.ts). */
  corrections?: ReadonlyMap<string, CorrectionReason>;
};

export type ReviewLogStep =
  | {
      ok: true;
      /** Each published review's time in the log, by id (its `updated` before the floor). */
      times: Map<string, string>;
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
  return path.join(dataDir, 'log-keys', encodeURIComponent(origin));
}

/** The demo's key: public on purpose (the demo is an example), derived from the origin so every demo build agrees. */
function demoSigner(origin: string): NoteSigner {
  return signerFromSeed(origin, createHash('sha256').update(`reviews demo log\n${origin}`).digest());
}

async function readKeyFile(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
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

export async function prepareReviewLog(
  reviews: readonly PublishedReview[],
  reasons: ReadonlyMap<string, WithdrawReason>,
  options: ReviewLogOptions,
): Promise<ReviewLogStep> {
  const origin = logOriginOf(options.publicUrl);
  const keyFile = logKeyFileOf(options.dataDir, origin);
  const remoteBase = `${options.publicUrl.replace(/\/+$/, '')}/${LOG_DIR}`;
  const demoKey = formatVerifierKey(demoSigner(origin));

  let signer: NoteSigner | undefined;
  let keySource = '';
  if (options.demo) {
    signer = demoSigner(origin);
  } else {
    const fromEnv = options.signingKey !== undefined;
    const text = fromEnv ? options.signingKey : await readKeyFile(keyFile);
    keySource = fromEnv ? 'LOG_SIGNING_KEY' : keyFile;
    if (text !== undefined) {
      const parsed = parsePrivateKey(text);
      if (!parsed.ok) return { ok: false, message: `The review log's key in ${keySource} cannot be read: ${parsed.reason}.` };
      if (parsed.value.name !== origin) {
        return { ok: false, message: `The review log's key in ${keySource} is for ${parsed.value.name}, but this build publishes ${origin} (PUBLIC_URL ${options.publicUrl}). Set PUBLIC_URL to the address the log was published at, or give the key of ${origin}.` };
      }
      signer = parsed.value;
    }
  }

  let previous: OpenedLog | undefined;
  // The build in service; when DIST_DIR went missing, the last good build the next swap keeps from.
  const servedDir = (await readManifest(options.outDir)) ? options.outDir : ((await findLastGoodBuild(options.outDir))?.dir ?? options.outDir);
  // A build for another address (PUBLIC_URL changed) holds another log, not this address's history.
  const localOrigin = (await readFile(path.join(servedDir, LOG_DIR, 'checkpoint'), 'utf8').catch(() => '')).split('\n', 1)[0];
  const local = localOrigin !== '' && localOrigin !== origin
    ? ({ ok: 'absent' } as const)
    : await openLogFiles(diskReader(path.join(servedDir, LOG_DIR)), origin);
  const localIsDemo = local.ok === true && formatVerifierKey(local.value.verifier) === demoKey;
  if (options.demo) {
    if (local.ok === true && localIsDemo) previous = local.value;
  } else if (local.ok === false) {
    return { ok: false, message: `The review log in ${path.join(servedDir, LOG_DIR)}/ cannot be continued: ${local.reason}. Restore that build folder from a backup, or publish from a machine that has it.` };
  } else if (local.ok === true && !localIsDemo) {
    previous = local.value;
  }

  if (!options.demo && previous === undefined) {
    const remote = await openLogFiles(remoteReader(remoteBase, options.fetch ?? fetch), origin, signer).catch((error: Error) => ({ ok: 'unreachable' as const, reason: error.cause instanceof Error ? error.cause.message : error.message }));
    // The demo's log served at this address (the demo still running where the owner now publishes) is no
    // history of the owner's: the owner's log starts afresh.
    if (remote.ok === true) previous = formatVerifierKey(remote.value.verifier) === demoKey ? undefined : remote.value;
    else if (remote.ok === false) {
      return { ok: false, message: `${remoteBase}/ already has a review log that this build cannot continue: ${remote.reason}. ${signer ? '' : `Give this machine the log's key (LOG_SIGNING_KEY, or the file ${keyFile} from the machine that published it). `}A second history for one address is never started.` };
    } else if (remote.ok === 'unreachable' && signer !== undefined) {
      return {
        ok: false,
        message: `This machine has the review log's key for ${origin} (${keySource}) but not the last published log: ${path.join(options.outDir, LOG_DIR)}/ has none and ${remoteBase}/ cannot be read (${remote.reason}). Restore the previous build folder, or make ${remoteBase}/ reachable, then build again. ${keySource === 'LOG_SIGNING_KEY' ? 'Check that PUBLIC_URL is the address the log was published at.' : `If nothing was ever published at this address, delete ${keySource} and build again.`}`,
      };
    }
  }

  if (previous && signer && formatVerifierKey(previous.verifier) !== formatVerifierKey(signer)) {
    // A rotation (docs/log.md): the owner lists the key being retired, so the log goes on under the new one.
    const retired = ((await readKeyFile(`${keyFile}.previous`)) ?? '').split('\n').map((line) => line.trim());
    if (!retired.includes(formatVerifierKey(previous.verifier))) {
      return { ok: false, message: `The last review log for ${origin} is signed by ${formatVerifierKey(previous.verifier)}, not by the key in ${keySource} (${formatVerifierKey(signer)}). Use the log's own key; to rotate to this one, list the old verifier key in ${keyFile}.previous (docs/log.md).` };
    }
  }
  if (previous && !signer) {
    return { ok: false, message: `The review log for ${origin} (signed by ${formatVerifierKey(previous.verifier)}) cannot be continued: this machine does not have its key. Set LOG_SIGNING_KEY, or put the key file back at ${keyFile}.` };
  }
  const created = signer === undefined;
  const key = signer ?? generateSigner(origin);

  const published = reviews.map((r) => ({ id: r.id, date: r.date, rating: r.rating, digest: digestReview(r), changed: getLatestChange(r), direct: r.source === DEFAULT_SOURCE, parts: () => digestReviewParts(r) }));
  const state = replayLog(previous?.decoded ?? []);
  const added = planLogAppend({ state, published, reasons, corrections: options.corrections, now: formatLogTime((options.now ?? (() => new Date()))()) });
  const entries = [...(previous?.decoded ?? []), ...added];
  const bytes = [...(previous?.entries ?? []), ...added.map(encodeLogEntry)];

  return {
    ok: true,
    times: readLogTimes(state, added),
    entries,
    bytes,
    added: added.length,
    async write(buildDir, cosign) {
      const { files, tree } = buildLogFiles({ origin, entries: bytes, signer: key, tree: previous?.tree });
      // The witnesses' cosignatures (the caller's round trip, scripts/lib/witness-cosignatures.ts), before the proofs carry them.
      if (cosign) files.set(CHECKPOINT_PATH, Buffer.from(await cosign(files.get(CHECKPOINT_PATH)!.toString('utf8'), tree), 'utf8'));
      // Each served review's proof, against the checkpoint as served (its cosignatures included).
      const latest = replayLog(entries);
      const proofs = buildReviewProofs({ reviews, entries: bytes, latest, tree, checkpoint: files.get(CHECKPOINT_PATH)!.toString('utf8') });
      for (const [id, proof] of proofs) files.set(logProofPath(id).slice(PATHS.logPrefix.length), proof);
      // Each folder made once (see diskReader for why synchronously).
      const made = new Set<string>();
      for (const [rel, data] of files) {
        const file = path.join(buildDir, LOG_DIR, rel);
        const dir = path.dirname(file);
        if (!made.has(dir)) mkdirSync(dir, { recursive: true });
        made.add(dir);
        writeFileSync(file, data);
      }
      // The witnesses are asked afterwards, by the build (scripts/lib/witness-cosignatures.ts), with this tree.
      return { tree };
    },
    async commit() {
      if (!created || options.demo) return undefined;
      await mkdir(path.dirname(keyFile), { recursive: true, mode: 0o700 });
      await replaceFile(keyFile, `${formatPrivateKey(key)}\n`, { mode: 0o600 });
      return `Created the review log's signing key for ${origin} in ${keyFile} (verifier key ${formatVerifierKey(key)}). Back this file up: without it no later build can continue the log (docs/log.md).`;
    },
  };
}
