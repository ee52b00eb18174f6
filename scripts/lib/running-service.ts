/**
 * Which service runs on a DIST_DIR, asked before anything is built or written (issue 41 items 1 and 2).
 * `npm start` and `npm run serve` record themselves, once listening, in `.builds/serving-<DIST_DIR
 * name>-<random>.json` (their pid, the PUBLIC_URL they serve and where they listen), and hold that record's
 * kernel lock (held-lock.ts) while they live: a record whose lock nobody holds is an ended service's, and is
 * removed. A pid alone could not say so once services run in containers sharing a volume (two sidecars
 * with the same pid wrote one record, and any pid a record names may be alive in the reader's container);
 * a record named by pid (`-p<pid>.json`, an older version's) is still judged by its pid. Before it builds, a command compares its PUBLIC_URL with
 * theirs: a build for another address would be refused by the service (sidecar/builds/build-target.ts)
 * yet left in DIST_DIR, so it refuses first, in one line naming both addresses. `npm run publish` pings
 * the service where it listens, whatever this shell's PORT says.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import { buildsDirOf, isProcessAlive } from '../../core/publishing/build-folders-fs.ts';
import type { Config } from '../../core/config.ts';
import { isHeldLockHeld, takeHeldLock, type HeldLock } from './held-lock.ts';

const RecordSchema = z.object({ pid: z.int().positive(), public_url: z.string(), url: z.string() });
export type RunningService = z.infer<typeof RecordSchema>;

const prefixOf = (distDir: string) => `serving-${encodeURIComponent(path.basename(path.resolve(distDir)))}-`;
/** This process's own record, once it made one, and its lock: kept here, or a collection would close it. */
let ownRecord: string | undefined;
let ownLock: HeldLock | undefined;

/** Records this process as the service of `distDir`, until it exits. */
export async function recordRunningService(distDir: string, service: { publicUrl: string; url: string }): Promise<void> {
  const dir = buildsDirOf(distDir);
  const file = path.join(dir, `${prefixOf(distDir)}${randomBytes(6).toString('hex')}.json`);
  await mkdir(dir, { recursive: true });
  // A new name: nobody else holds its lock. Held until this process ends, however it ends.
  const held = (ownLock = await takeHeldLock(file));
  if (!held.ok) throw new Error(`the service record ${file} is held by another process`);
  await replaceFile(file, `${JSON.stringify({ pid: process.pid, public_url: service.publicUrl, url: service.url })}\n`);
  ownRecord = file;
  process.once('exit', () => {
    rmSync(file, { force: true });
    rmSync(`${file}.held`, { force: true });
  });
}

/** Whether the service that wrote the record `name` in `dir` still runs. */
function isServing(dir: string, name: string, record: RunningService): boolean {
  // An older version's record, named by its pid, holds no lock.
  if (/-p\d+\.json$/.test(name)) return isProcessAlive(record.pid);
  return isHeldLockHeld(path.join(dir, name));
}

/** The services running on `distDir` now (another process than this one); records of ended ones are removed. */
export function findRunningServices(distDir: string): RunningService[] {
  const dir = buildsDirOf(distDir);
  const prefix = prefixOf(distDir);
  const found: RunningService[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix) && /^(p\d+|[0-9a-f]{12})\.json$/.test(n.slice(prefix.length)));
  } catch {
    return [];
  }
  for (const name of names) {
    const file = path.join(dir, name);
    let record: RunningService;
    try {
      record = RecordSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
    } catch {
      continue;
    }
    if (file === ownRecord) continue;
    if (isServing(dir, name, record)) found.push(record);
    else {
      rmSync(file, { force: true });
      rmSync(`${file}.held`, { force: true });
    }
  }
  return found;
}

/**
 * Before `verb` (`Nothing published`, `Not started`, `Not built`) writes anything: refuses when a
 * service runs on the same DIST_DIR with another PUBLIC_URL, or (`store: true`, for a command that starts
 * a service) when a running service holds DATA_DIR's store. Returns the running service, if any.
 */
export async function checkRunningService(
  config: Pick<Config, 'publicUrl' | 'distDir' | 'dataDir' | 'databaseUrl'>,
  verb: string,
  options: { store?: boolean } = {},
): Promise<{ ok: true; service: RunningService | undefined } | { ok: false; message: string }> {
  const services = findRunningServices(config.distDir);
  const other = services.find((s) => s.public_url !== config.publicUrl);
  if (other) {
    return {
      ok: false,
      message: `${verb}: PUBLIC_URL here is ${config.publicUrl}, but the service running on DIST_DIR ${path.resolve(config.distDir)} (process ${other.pid}, at ${other.url}) serves ${other.public_url}; run this with PUBLIC_URL=${other.public_url} as that service has it (in .env), or stop that service first.`,
    };
  }
  const service = services[0];
  if (options.store && config.databaseUrl === undefined) {
    // Loaded here only: a build or a publish has no use for the hub (0.1 s of CPU at every start).
    const { lockStoreFile, SQLITE_FILE_NAME, StoreLockedError } = await import('../../sidecar/websub/index.ts');
    const file = path.join(config.dataDir, SQLITE_FILE_NAME);
    try {
      readdirSync(config.dataDir);
      lockStoreFile(file).release();
    } catch (error) {
      if (error instanceof StoreLockedError) {
        const running = service ? ` It is process ${service.pid}, at ${service.url}, serving ${service.public_url}.` : '';
        return { ok: false, message: `${verb}: ${error.message}${running}` };
      }
      // Any other problem with DATA_DIR (missing, not a folder, not writable) is the service's to report:
      // it serves anyway and says so in one line (docs/operations.md).
    }
  }
  return { ok: true, service };
}
