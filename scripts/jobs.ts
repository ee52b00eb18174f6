/**
 * `npm run jobs -- receipt <job id>` (issue 42 item 3): prints a job's receipt code, for the customer's
 * invoice, and the address where anyone holding it finds the job in the public log
 * (`{PUBLIC_URL}/log/job/?code=<code>`), and says whether the served build logs it yet.
 *
 * The code is derived from the owner's job key (scripts/lib/job-key.ts): the demo's from its origin, else
 * `DATA_DIR/log-keys/<origin>.jobs`, which a publish creates and a backup keeps. This command never
 * creates one: a receipt from a key the log does not use would match nothing.
 * Exit 0 with the receipt, 1 when the content, the job or the key cannot be had, 2 on bad usage.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadContent } from '../core/content/load-content.ts';
import { formatContentProblems } from '../core/content/problems.ts';
import { formatReceiptCode, jobShardOf } from '../core/log/job.ts';
import { findJobRecord } from '../core/log/job-lookup.ts';
import { logOriginOf } from '../core/log/log-files.ts';
import { formatDate } from '../core/pages/format.ts';
import { logJobsShardPath } from '../core/urls.ts';
import { readEntryConfig } from './lib/entry-config.ts';
import { demoJobKey, jobForLog, jobKeyFileOf, jobSecretOf, readJobKey, type JobKey } from './lib/job-key.ts';
import { logKeyFileOf, logKeysDirOf } from './lib/review-log.ts';

const USAGE = 'Usage: npm run jobs -- receipt <job id>';

/** The job key, never a new one: what to say when there is none. */
async function readKey(options: { demo: boolean; origin: string; dataDir: string; fromEnv: string | undefined }): Promise<{ ok: true; key: JobKey } | { ok: false; message: string }> {
  if (options.demo) return { ok: true, key: demoJobKey(options.origin) };
  const file = options.fromEnv === undefined ? jobKeyFileOf(logKeyFileOf(options.dataDir, options.origin)) : 'LOG_JOBS_KEY';
  const read = await readJobKey(file, options.fromEnv);
  const restore = 'Put it back from a backup (npm run restore -- <backup made by npm run backup>)';
  if (!read.ok) return { ok: false, message: `The job key in ${file} cannot be read: ${read.reason}. ${restore}.` };
  if (read.key.created) {
    const others = await listJobKeyOrigins(options.dataDir);
    if (options.fromEnv === undefined && others.length > 0) {
      // A shell without the service's PORT or PUBLIC_URL: the key is there, under the address the log is for.
      return { ok: false, message: `There is no job key for ${options.origin} on this machine, only for ${others.join(', ')} (${path.dirname(file)}): run this with the PUBLIC_URL (or PORT) the service publishes with, as in .env.` };
    }
    return { ok: false, message: `There is no job key for ${options.origin} on this machine (${file}). ${restore}; or, if no job was ever published, run npm run publish first: it creates the key and logs the jobs.` };
  }
  return read;
}

/** The logs whose job keys DATA_DIR holds (`log-keys/<origin>.jobs`, jobKeyFileOf). */
async function listJobKeyOrigins(dataDir: string): Promise<string[]> {
  const names = await readdir(logKeysDirOf(dataDir)).catch(() => []);
  return names.flatMap((name) => (name.endsWith('.jobs') ? [decodeURIComponent(name.slice(0, -'.jobs'.length))] : [])).sort();
}

/** What the served build's look-up says of the job: logged (and as it is now), or not yet. */
async function describeLogged(distDir: string, job: { locator: string; commitment: string }): Promise<string> {
  const file = path.join(distDir, ...logJobsShardPath(jobShardOf(job.locator)).split('/').filter(Boolean));
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined && !(await readFile(path.join(distDir, 'log', 'checkpoint')).then(() => true, () => false))) {
    return `Logged: not known here (no build in ${path.resolve(distDir)}).`;
  }
  const record = text === undefined ? undefined : findJobRecord(text, job.locator);
  if (record === undefined) return 'Logged: not yet. The next publish logs it; the address finds it from then on.';
  if (record.commitment !== job.commitment) return `Logged: entry ${record.entry}, on ${formatDate(record.time.slice(0, 10))}, but as it was before it changed in the content; the next publish logs it again.`;
  return `Logged: entry ${record.entry} of the review log, on ${formatDate(record.time.slice(0, 10))} (week ${record.week}, ${record.service}${record.area === null ? '' : `, ${record.area}`}).`;
}

async function main(argv: readonly string[]): Promise<number> {
  let positionals: string[];
  try {
    ({ positionals } = parseArgs({ args: [...argv], allowPositionals: true, options: {} }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (positionals.length !== 2 || positionals[0] !== 'receipt') {
    console.error(USAGE);
    return 2;
  }
  const id = positionals[1]!;
  const { config, demo, urls } = readEntryConfig({ demoFallback: true });
  const content = await loadContent(config.contentDir);
  if (!content.ok) {
    console.error(formatContentProblems(content.problems));
    return 1;
  }
  const job = content.value.jobs.find((j) => j.id === id);
  if (job === undefined) {
    console.error(`No job "${id}" in ${path.join(config.contentDir, 'jobs')}/*.json.`);
    return 1;
  }
  const origin = logOriginOf(config.publicUrl);
  const key = await readKey({ demo, origin, dataDir: config.dataDir, fromEnv: config.logJobsKey });
  if (!key.ok) {
    console.error(key.message);
    return 1;
  }
  const code = formatReceiptCode(jobSecretOf(key.key, job.id));
  console.log(`Receipt code for job ${job.id}: ${code}`);
  console.log(`Check it at: ${urls.logJob(code)}`);
  console.log(await describeLogged(config.distDir, jobForLog(key.key, job)));
  return 0;
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2));
