/**
 * Which service runs on a DIST_DIR, asked before anything is built or written (issue 41 items 1 and 2).
 * `npm start` and `npm run serve` record themselves, once listening, in `.builds/serving-<DIST_DIR
 * name>-p<pid>.json` (the PUBLIC_URL they serve and where they listen; removed when the process exits, and
 * a record whose process is gone is ignored). Before it builds, a command compares its PUBLIC_URL with
 * theirs: a build for another address would be refused by the service (sidecar/builds/build-target.ts)
 * yet left in DIST_DIR, so it refuses first, in one line naming both addresses. `npm run publish` pings
 * the service where it listens, whatever this shell's PORT says.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import { buildsDirOf, isProcessAlive } from '../../core/publishing/build-folders-fs.ts';
import type { Config } from '../../core/config.ts';
import { lockStoreFile, SQLITE_FILE_NAME, StoreLockedError } from '../../sidecar/websub/index.ts';

const RecordSchema = z.object({ pid: z.int().positive(), public_url: z.string(), url: z.string() });
export type RunningService = z.infer<typeof RecordSchema>;

const prefixOf = (distDir: string) => `serving-${encodeURIComponent(path.basename(path.resolve(distDir)))}-p`;

/** Records this process as the service of `distDir`, until it exits. */
export async function recordRunningService(distDir: string, service: { publicUrl: string; url: string }): Promise<void> {
  const dir = buildsDirOf(distDir);
  const file = path.join(dir, `${prefixOf(distDir)}${process.pid}.json`);
  await mkdir(dir, { recursive: true });
  await replaceFile(file, `${JSON.stringify({ pid: process.pid, public_url: service.publicUrl, url: service.url })}\n`);
  process.once('exit', () => rmSync(file, { force: true }));
}

/** The services running on `distDir` now (another process than this one); records of ended ones are removed. */
export function findRunningServices(distDir: string): RunningService[] {
  const dir = buildsDirOf(distDir);
  const prefix = prefixOf(distDir);
  const found: RunningService[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix) && /^\d+\.json$/.test(n.slice(prefix.length)));
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
    if (record.pid === process.pid) continue;
    if (isProcessAlive(record.pid)) found.push(record);
    else rmSync(file, { force: true });
  }
  return found;
}

/**
 * Before `verb` (`Nothing published`, `Not started`, `Not built`) writes anything: refuses when a
 * service runs on the same DIST_DIR with another PUBLIC_URL, or (`store: true`, for a command that starts
 * a service) when a running service holds DATA_DIR's store. Returns the running service, if any.
 */
export function checkRunningService(
  config: Pick<Config, 'publicUrl' | 'distDir' | 'dataDir' | 'databaseUrl'>,
  verb: string,
  options: { store?: boolean } = {},
): { ok: true; service: RunningService | undefined } | { ok: false; message: string } {
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
