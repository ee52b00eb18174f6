/**
 * The running service's part in witnessing its own log (LOG_WITNESSES): a cosignature a publish could
 * not have (a witness down, slow, or not yet due under LOG_WITNESS_QPD) is asked for again, every
 * `retryIntervalMs`, without a new publish. Each one obtained is appended to the served
 * `/log/checkpoint` at once and kept in DATA_DIR/log-cosignatures.json, so a restart serves it again.
 * (A copy of the build on a CDN holds only the cosignatures the publish had.)
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import { logOriginOf, openLogFiles } from '../../core/log/log-files.ts';
import { PATHS } from '../../core/urls.ts';
import { requestCosignatures, textOf, witnessesLacking, type LogWitness } from './request-cosignatures.ts';
import type { BuildStore } from '../builds/build-store.ts';
import { prepareRepresentation, type Representation } from '../http/send-representation.ts';
import type { Logger } from '../logger.ts';

export const LATE_COSIGNATURES_FILE = 'log-cosignatures.json';

type Kept = { text: string; lines: string[] };

export type CosignLaterOptions = {
  builds: BuildStore;
  publicUrl: string;
  dataDir: string;
  witnesses: readonly LogWitness[];
  timeoutMs: number;
  qpd: number;
  intervalMs: number;
  log: Logger;
  fetch?: typeof fetch;
};


/** Serves `note` as the current build's checkpoint (the build's own bytes are left as they are on disk). */
function serveCheckpoint(builds: BuildStore, rep: Representation, note: string): void {
  const body = Buffer.from(note, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  // The one representation the service changes after load: the build store hands out this same map.
  (builds.current().resources as Map<string, Representation>).set(
    PATHS.logCheckpoint,
    prepareRepresentation({ headers: rep.headers, lastModifiedMs: Date.now(), identity: { body, etag } }),
  );
}

/** Starts the retries; returns the function that stops them. */
export function startCosignLater(options: CosignLaterOptions): { stop(): void; tick(): Promise<void> } {
  const keptFile = path.join(options.dataDir, LATE_COSIGNATURES_FILE);
  let running: Promise<void> | undefined;

  async function readKept(): Promise<Kept | undefined> {
    try {
      return JSON.parse(await readFile(keptFile, 'utf8')) as Kept;
    } catch {
      return undefined;
    }
  }

  async function once(): Promise<void> {
    const build = options.builds.current();
    const rep = build.resources.get(PATHS.logCheckpoint);
    if (!rep) return;
    let note = Buffer.from(rep.identity.body).toString('utf8');
    const text = textOf(note);
    // After a restart: the cosignatures obtained late for this very checkpoint.
    const kept = await readKept();
    if (kept?.text === text) {
      const add = kept.lines.filter((line) => !note.includes(line));
      if (add.length > 0) {
        note += add.join('');
        serveCheckpoint(options.builds, rep, note);
      }
    }
    if (witnessesLacking(note, options.witnesses).length === 0) return;
    const opened = await openLogFiles(async (rel) => readFile(path.join(build.dir, 'log', rel)).catch(() => undefined), logOriginOf(options.publicUrl));
    if (opened.ok !== true || textOf(note) !== text) return;
    const asked = await requestCosignatures({ note, tree: opened.value.tree, witnesses: options.witnesses, timeoutMs: options.timeoutMs, qpd: options.qpd, dataDir: options.dataDir, fetch: options.fetch });
    const outcomes = asked.outcomes.filter((o) => !('deferred' in o && o.deferred));
    if (outcomes.length > 0) options.log.info('log_cosignatures', { outcomes: outcomes.map((o) => `${o.url}: ${o.detail}`).join('; ') });
    if (asked.note === note || options.builds.current() !== build) return;
    serveCheckpoint(options.builds, rep, asked.note);
    const lines = asked.note.slice(text.length + 1).split('\n').filter(Boolean).map((l) => `${l}\n`);
    await replaceFile(keptFile, `${JSON.stringify({ text, lines } satisfies Kept)}\n`);
  }

  const tick = () => {
    running ??= once()
      .catch((error: unknown) => options.log.warn('log_cosignatures', { outcomes: `failed: ${(error as Error).message}` }))
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void tick(), options.intervalMs);
  timer.unref();
  void tick();
  return {
    stop: () => clearInterval(timer),
    tick,
  };
}
