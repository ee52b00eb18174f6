/**
 * The real service process, as `npm run serve` runs it over a build (`node scripts/serve.ts`, configured
 * by environment only): for tests that need Node's own module loader (each build's page code imported
 * into one long-lived process), NODE_EXTRA_CA_CERTS read at start, or a process they can kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { PATHS } from '../../core/urls.ts';
import type { TestSubscriber } from '../websub/test-subscriber.ts';
import { buildTestSite } from './site-build.ts';

export type ServiceProcess = {
  child: ChildProcess;
  url: string;
  output: () => string;
  /**
   * The first log entry of `event` written at or after offset `from` of the output (and matching `match`),
   * as soon as the service writes it. Fails after `timeoutMs`, or when the service exits, naming every
   * event it logged since `from`, so a failure says how far the service got.
   */
  waitForEvent: (event: string, options?: { from?: number; match?: (entry: LogEntry) => boolean; timeoutMs?: number }) => Promise<LogEntry>;
};

export type LogEntry = { event: string } & Record<string, unknown>;

/** Starts the service with `env` over the current environment; resolves once it logged where it listens. */
export function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--max-semi-space-size=16', 'scripts/serve.ts'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const { listening, output } = whenListening(child);
  return listening.then((url) => ({ child, url, output, waitForEvent: (event, options) => waitForEvent(child, output, event, options) }));
}

/**
 * Collects all that `child` prints (the service, however started: `node scripts/serve.ts`, `npm start`),
 * and resolves with the URL it listens on once it logged so; rejects, with what it printed, if it exits first.
 */
export function whenListening(child: ChildProcess): { listening: Promise<string>; output: () => string } {
  let output = '';
  const listening = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = /"event":"listening","url":"([^"]+)"/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the service exited with ${code}: ${output}`)));
  });
  return { listening, output: () => output };
}

function logEntries(text: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as LogEntry;
      if (typeof entry.event === 'string') entries.push(entry);
    } catch {
      // A line cut by the end of a chunk: read again whole with the next one.
    }
  }
  return entries;
}

function waitForEvent(
  child: ChildProcess,
  output: () => string,
  event: string,
  { from = 0, match = () => true, timeoutMs = 60_000 }: { from?: number; match?: (entry: LogEntry) => boolean; timeoutMs?: number } = {},
): Promise<LogEntry> {
  const find = () => logEntries(output().slice(from)).find((e) => e.event === event && match(e));
  const found = find();
  if (found) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.off('exit', onExit);
    };
    const fail = (why: string) => {
      done();
      const seen = logEntries(output().slice(from)).map((e) => e.event);
      reject(new Error(`no ${event} ${why}; the service logged since: ${seen.join(', ') || 'nothing'}`));
    };
    const onData = () => {
      const entry = find();
      if (entry) {
        done();
        resolve(entry);
      }
    };
    const onExit = (code: number | null) => fail(`before the service exited (${code})`);
    const timer = setTimeout(() => fail(`within ${timeoutMs} ms`), timeoutMs);
    // The service's own listeners append to the output first: they were added when it started.
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', onExit);
  });
}

export function stopServiceProcess(service: ServiceProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    service.child.once('exit', () => resolve());
    service.child.kill(signal);
  });
}

/**
 * The service process over a fresh build of `contentDir` (into `distDir`, data in `workDir`), trusting
 * the test CA, with `subscriber` subscribed to `topic` at `callbackPath` and the subscription verified.
 */
export async function startSubscribedServiceProcess(options: {
  contentDir: string;
  distDir: string;
  workDir: string;
  publicUrl: string;
  subscriber: TestSubscriber;
  topic: string;
  callbackPath: string;
  env?: Record<string, string>;
}): Promise<ServiceProcess> {
  const dataDir = path.join(options.workDir, 'data');
  await buildTestSite({ contentDir: options.contentDir, outDir: options.distDir, publicUrl: options.publicUrl, dataDir });
  const service = await startServiceProcess({
    PUBLIC_URL: options.publicUrl,
    CONTENT_DIR: options.contentDir,
    DIST_DIR: options.distDir,
    DATA_DIR: dataDir,
    WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true',
    NODE_EXTRA_CA_CERTS: options.subscriber.ca.certFile,
    ...options.env,
  });
  const response = await fetch(`${service.url}${PATHS.hub}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.topic': options.topic, 'hub.callback': options.subscriber.sub.callback(options.callbackPath) }).toString(),
  });
  if (response.status !== 202) throw new Error(`subscribe answered ${response.status}: ${await response.text()}`);
  await options.subscriber.sub.waitForVerification(options.callbackPath, 'subscribe', 10_000);
  // The hub answers the challenge first and saves the subscription after: the subscription is the
  // hub's once it logged so (a test that cuts the store next would otherwise race the save).
  const callback = options.subscriber.sub.callback(options.callbackPath);
  await service.waitForEvent('websub_intent_verified', { match: (e) => e.topic === options.topic && e.callback === callback, timeoutMs: 10_000 });
  return service;
}
