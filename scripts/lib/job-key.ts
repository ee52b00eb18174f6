/**
 * The owner's job key (issue 42, docs/log.md "Jobs"): 32 random bytes from which each job's secret, and
 * so its receipt code, is derived (core/log/job.ts). Kept beside the log's key, in
 * `DATA_DIR/log-keys/<origin>.jobs` (mode 0600), so `npm run backup` keeps it and `npm run restore` puts
 * it back; without it no receipt can be printed again and no new job can be logged. A build machine
 * without DATA_DIR (a CI run) takes the file's one line from LOG_JOBS_KEY instead, as it takes the log's
 * key from LOG_SIGNING_KEY. The demo's is derived from its origin, public on purpose like the demo's log key.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile } from '../../core/atomic-file-fs.ts';
import { isoWeekOf, JOB_SECRET_BYTES, jobCommitment, jobLocator } from '../../core/log/job.ts';
import type { JobForLog } from '../../core/log/plan-append.ts';
import type { JobContent } from '../../core/schemas/content.ts';

const KEY_PREFIX = 'reviews-job-key/v1 ';
const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());

export type JobKey = { bytes: Buffer; created: boolean };

/** Where the job key of `logKeyFile`'s log is kept. */
export const jobKeyFileOf = (logKeyFile: string) => `${logKeyFile}.jobs`;

export function demoJobKey(origin: string): JobKey {
  return { bytes: createHash('sha256').update(`reviews demo jobs\n${origin}`).digest(), created: false };
}

type ReadKey = { ok: true; key: JobKey } | { ok: false; reason: string };

/** A key file's one line (or LOG_JOBS_KEY), `reviews-job-key/v1 <32 bytes in base64>`. */
export function parseJobKey(text: string): ReadKey {
  const bytes = text.startsWith(KEY_PREFIX) ? Buffer.from(text.slice(KEY_PREFIX.length).trim(), 'base64') : Buffer.alloc(0);
  if (bytes.length !== 32) return { ok: false, reason: `it is not a job key (one line: "${KEY_PREFIX}<32 bytes in base64>")` };
  return { ok: true, key: { bytes, created: false } };
}

/**
 * The key: LOG_JOBS_KEY (`fromEnv`) when set, else the one in `file`, else a new one (saved by
 * `saveJobKey` once the build is in place).
 */
export async function readJobKey(file: string, fromEnv?: string): Promise<ReadKey> {
  if (fromEnv !== undefined) return parseJobKey(fromEnv);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return { ok: false, reason: (error as Error).message };
    return { ok: true, key: { bytes: randomBytes(32), created: true } };
  }
  return parseJobKey(text);
}

export async function saveJobKey(file: string, key: JobKey): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await replaceFile(file, `${KEY_PREFIX}${key.bytes.toString('base64')}\n`, { mode: 0o600 });
}

/** A job's secret: the first bytes of HMAC-SHA256(key, "reviews-job-secret/v1\n" + its id). */
export function jobSecretOf(key: JobKey, jobId: string): Uint8Array {
  return new Uint8Array(createHmac('sha256', key.bytes).update(`reviews-job-secret/v1\n${jobId}`).digest().subarray(0, JOB_SECRET_BYTES));
}

/** A content job as the log says it. */
export function jobForLog(key: JobKey, job: JobContent): JobForLog {
  const secret = jobSecretOf(key, job.id);
  return {
    week: isoWeekOf(job.completed),
    service: job.service,
    ...(job.area === undefined ? {} : { area: job.area }),
    locator: jobLocator(secret, sha256),
    commitment: jobCommitment({ secret, completed: job.completed, service: job.service, area: job.area }, sha256),
    completed: job.completed,
  };
}
