/**
 * `npm run publish`: build the content (validated, into a fresh folder, swapped in with two renames:
 * scripts/build.ts), then tell the running service with one WebSub `hub.mode=publish` ping per topic
 * to its hub at `http://HOST:PORT`. The hub re-reads each topic through the service's build store, so
 * the ping is also what makes the service load the new build; it then notifies the subscribers of every
 * topic whose bytes changed, and nobody for a topic whose bytes did not (CONTRACT.md "WebSub decisions").
 * What publish reports is the hub's verdict, the typed body of each ping's 202 (PublishVerdictSchema:
 * per topic, slice feeds included, changed or not and for how many subscribers), never its own guess.
 *
 * Exit codes: 0 published and recorded; 1 not published (invalid content, a service that cannot load
 * the build or refuses the pings, no service and a store that cannot record); 2 a bad command line;
 * 3 `--require-service` and no service running; 4 the service serves the build but its hub could not
 * record the change in its store yet, which it then does by itself (its retries, and its build check
 * once the store answers), notifying the subscribers then.
 *
 * - Invalid content stops before anything is swapped: the build's error, exit 1, dist and the running
 *   service untouched.
 * - No service listening: the build is in place, and publish records its topics in the hub's store itself
 *   (DATA_DIR or DATABASE_URL, as the service would), which queues a delivery for every subscriber of a
 *   changed topic; the next start serves the build and delivers them. Exit 0 only once the store has
 *   recorded the change (or nothing changed); a store that cannot record it exits 1 naming the cause
 *   (the next start would still notice the change, but nothing holds it until then).
 *
 * `npm run publish -- --ping-only <sidecar URL>` builds nothing: for a build deployed some other way
 * (a CDN upload, a sidecar on another host), it sends the same pings to that sidecar's hub, for the
 * topics under PUBLIC_URL. With a build in DIST_DIR it then waits until the sidecar serves that build,
 * so a sidecar that was not given the new build is reported rather than silently notifying nobody.
 */
import { ReadinessSchema, type Readiness } from '../core/schemas/readiness.ts';
import { PublishVerdictSchema, type PublishVerdict, type TopicVerdict } from '../core/schemas/publish-verdict.ts';
import type { Manifest } from '../core/publishing/manifest.ts';
import { PATHS, type ServiceUrls } from '../core/urls.ts';
import type { Config } from '../core/config.ts';
import { parseArgs } from 'node:util';
import { buildOptionsFor, buildSite, type BuildOptions } from './build.ts';
import { readManifest } from '../core/publishing/build-folders-fs.ts';
import { readEntryConfig } from './lib/entry-config.ts';
import { checkRunningService } from './lib/running-service.ts';
import { plural } from '../core/text/text-rules.ts';
import { lowerProcessPriority } from '../sidecar/thread-priority.ts';

export type PublishResult =
  | { ok: false; stage: 'build'; message: string }
  | { ok: false; stage: 'notify' | 'record'; message: string; manifest: Manifest }
  /** The service serves the build; `topics` is its hub's verdict, slice feeds included. */
  | { ok: true; manifest: Manifest; ms: number; service: 'notified'; topics: TopicVerdict[] }
  /**
   * The service serves the build, but its hub could not record some topics in its store (`message` says
   * why): it records them by itself once the store answers (its retries, its build check), and notifies then.
   */
  | { ok: true; manifest: Manifest; ms: number; service: 'not-recorded'; topics: TopicVerdict[]; unrecorded: string[]; message: string }
  /** No service: publish recorded the build's topics in the hub's store itself; `queued` deliveries wait for the next start. */
  | { ok: true; manifest: Manifest; ms: number; service: 'not-running'; topics: TopicVerdict[]; queued: number };

export type PublishOptions = {
  build: BuildOptions;
  /** The service's URLs under `build.publicUrl`, as the entry point built them. */
  urls: ServiceUrls;
  /** What the build warns about and went on despite (a photo original that carries a location). */
  onWarning?: (line: string) => void;
  /** Where the running service listens, e.g. `http://127.0.0.1:4321`. */
  serviceUrl: string;
  /** How long to wait for the service to serve the new build after the pings. */
  confirmTimeoutMs?: number;
  /** The hub's store, where the change is recorded when no service answers (Config's dataDir, databaseUrl). */
  store: { dataDir: string; databaseUrl: string | undefined };
};

export async function publishSite(options: PublishOptions): Promise<PublishResult> {
  const { urls } = options;
  const built = await buildSite(options.build, urls);
  if (!built.ok) return { ok: false, stage: 'build', message: built.message };
  for (const warning of built.warnings) options.onWarning?.(warning);
  const { manifest } = built;
  const seeds = urls.topics();
  // The sidecar serves everything under the public URL's path, on this machine too.
  const serviceUrl = `${options.serviceUrl}${urls.basePath}`;
  const hubUrl = `${serviceUrl}${PATHS.hub}`;
  const verdicts = new Map<string, TopicVerdict>();
  const unrecorded: string[] = [];
  let notRecorded: string | undefined;
  for (const topic of seeds) {
    const sent = await sendPublishPing(hubUrl, topic);
    if (sent.kind === 'not-running') {
      // Loaded here only: with a service running, a publish has no use for the hub's store (0.1 s of CPU at its start).
      const { recordPublishWithoutService } = await import('../sidecar/websub/index.ts');
      const recorded = await recordPublishWithoutService({ store: options.store, distDir: options.build.outDir, urls });
      if (!recorded.ok) return { ok: false, stage: 'record', message: recorded.message, manifest };
      const topics = recorded.topics.map(({ topic: t, changed, enqueued }) => ({ topic: t, changed, subscribers: enqueued }));
      return { ok: true, manifest, ms: built.ms, service: 'not-running', topics, queued: recorded.queued };
    }
    if (sent.kind === 'refused') return { ok: false, stage: 'notify', message: sent.message, manifest };
    if (sent.kind === 'not-recorded') {
      notRecorded ??= sent.message;
      unrecorded.push(topic);
      continue;
    }
    for (const verdict of sent.verdict.topics) verdicts.set(verdict.topic, verdict);
  }
  const paths = seeds.map((topic) => urls.pathOf(topic)!);
  const confirmed = await waitUntilServed(serviceUrl, manifest, paths, options.confirmTimeoutMs ?? 10_000);
  if (!confirmed.ok) return { ok: false, stage: 'notify', message: confirmed.message, manifest };
  const topics = [...verdicts.values()];
  if (notRecorded !== undefined) return { ok: true, manifest, ms: built.ms, service: 'not-recorded', topics, unrecorded, message: notRecorded };
  return { ok: true, manifest, ms: built.ms, service: 'notified', topics };
}

export type PingResult = { ok: true; topics: string[]; confirmed: boolean } | { ok: false; message: string };

/** `--ping-only`: the pings alone, to a sidecar that something else gave the new build. */
export async function pingHub(options: { serviceUrl: string; urls: ServiceUrls; manifest: Manifest | undefined; confirmTimeoutMs?: number }): Promise<PingResult> {
  const { urls } = options;
  const topics = urls.topics();
  const serviceUrl = `${options.serviceUrl}${urls.basePath}`;
  const hubUrl = `${serviceUrl}${PATHS.hub}`;
  for (const topic of topics) {
    const sent = await sendPublishPing(hubUrl, topic);
    if (sent.kind === 'not-running') return { ok: false, message: `nothing answers at ${options.serviceUrl} (connection refused)` };
    if (sent.kind !== 'accepted') return { ok: false, message: sent.message };
  }
  if (!options.manifest) return { ok: true, topics, confirmed: false };
  const paths = topics.map((topic) => urls.pathOf(topic)!);
  const served = await waitUntilServed(serviceUrl, options.manifest, paths, options.confirmTimeoutMs ?? 10_000);
  return served.ok ? { ok: true, topics, confirmed: true } : { ok: false, message: served.message };
}

/**
 * What one publish ping came to: the hub recorded it (with its store's verdict), nothing listens there,
 * the hub could not record it in its store yet (it keeps trying by itself), or the hub (or the network)
 * refused it; with why.
 */
export type PingOutcome =
  | { kind: 'accepted'; verdict: PublishVerdict }
  | { kind: 'not-running' }
  | { kind: 'not-recorded'; message: string }
  | { kind: 'refused'; message: string };

/** One ping; a 429 is retried after its Retry-After (the hub limits requests per client address). */
async function sendPublishPing(hubUrl: string, topic: string): Promise<PingOutcome> {
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(hubUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ 'hub.mode': 'publish', 'hub.url': topic }).toString(),
        signal: AbortSignal.timeout(PING_TIMEOUT_MS),
      });
    } catch (error) {
      if (errorCode(error) === 'ECONNREFUSED') return { kind: 'not-running' };
      if (error instanceof Error && error.name === 'TimeoutError') {
        return refused(`the hub at ${hubUrl} did not answer the publish ping for ${topic} within ${PING_TIMEOUT_MS / 1000} s`);
      }
      return refused(`the hub at ${hubUrl} could not be reached (${errorCode(error) ?? String(error)})`);
    }
    const text = await response.text();
    if (response.status === 202) {
      // The hub's verdict is typed: an answer that is not one (an older sidecar, a proxy) is reported, never guessed at.
      const verdict = PublishVerdictSchema.safeParse(parseJson(text));
      if (verdict.success) return { kind: 'accepted', verdict: verdict.data };
      return refused(`the hub at ${hubUrl} accepted the publish ping for ${topic} but did not say what it recorded (no verdict in its 202: ${text.slice(0, 200) || 'empty body'}); is it an older service?`);
    }
    const reason = readErrorMessage(text);
    if (response.status === 429 && attempt < 4) {
      const seconds = Math.min(Number(response.headers.get('retry-after')) || 1, 5);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    if (reason?.error === 'publish_not_recorded' || reason?.error === 'hub_unavailable') {
      return { kind: 'not-recorded', message: `${reason.error}: ${reason.message}` };
    }
    return refused(`the hub at ${hubUrl} answered ${response.status} to the publish ping for ${topic}: ${reason ? `${reason.error}: ${reason.message}` : text.slice(0, 500)}`);
  }
}

const refused = (message: string): PingOutcome => ({ kind: 'refused', message });

/**
 * The hub answers a ping once it has loaded the new build and recorded its topics (the slice feeds too):
 * seconds on a busy machine, so the wait is generous.
 */
const PING_TIMEOUT_MS = 60_000;

/** The service's error body (`{ error, message }`), when the text is one. */
function readErrorMessage(text: string): { error: string; message: string } | undefined {
  const body = parseJson(text) as { error?: unknown; message?: unknown } | undefined;
  return typeof body?.error === 'string' && typeof body.message === 'string' ? { error: body.error, message: body.message } : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Waits until the service serves this very build: its `/readyz` names the build (when the sidecar
 * shows it; a proxy may hide it) and every topic answers with its new ETag. A build the service could
 * not load ends the wait at once with the service's own reason (`/readyz`'s `build.failed` names it).
 */
async function waitUntilServed(serviceUrl: string, manifest: Manifest, paths: readonly string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(paths);
  for (;;) {
    const readiness = await readReadiness(serviceUrl);
    const failed = readiness?.build.failed;
    if (failed?.build === manifest.build_id) {
      return { ok: false, message: `the service at ${serviceUrl} could not load build ${manifest.build_id} (${failed.dir}): ${failed.message}; it still serves build ${readiness!.build.served}` } as const;
    }
    const served = readiness?.build.served;
    if (served === undefined || served === manifest.build_id) {
      for (const path of [...pending]) {
        const response = await fetch(`${serviceUrl}${path}`, { method: 'HEAD', headers: { 'accept-encoding': 'identity' } }).catch(() => undefined);
        if (response?.headers.get('etag') === manifest.files[path]?.etag) pending.delete(path);
      }
      if (pending.size === 0) return { ok: true } as const;
    }
    if (Date.now() > deadline) {
      const serving = served === undefined ? `still serves other bytes for ${[...pending].join(', ')}` : `still serves build ${served}`;
      return {
        ok: false,
        message: `the service at ${serviceUrl} accepted the pings but ${serving} after ${timeoutMs / 1000} s; does it serve the same DIST_DIR and PUBLIC_URL?`,
      } as const;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `/readyz`'s typed answer (the same shape at 200 and 503), or undefined when there is none to read. */
async function readReadiness(serviceUrl: string): Promise<Readiness | undefined> {
  try {
    const response = await fetch(`${serviceUrl}${PATHS.ready}`, { signal: AbortSignal.timeout(5_000) });
    const parsed = ReadinessSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : undefined;
  } catch {
    // No readiness answer (an older sidecar, a proxy that hides it): the ETags alone decide.
    return undefined;
  }
}

function errorCode(error: unknown): string | undefined {
  const cause = error instanceof Error && error.cause ? error.cause : error;
  if (cause && typeof cause === 'object' && 'code' in cause && typeof cause.code === 'string') return cause.code;
  return cause instanceof Error ? cause.message : undefined;
}

if (import.meta.main) {
  // The build gives way to the service it publishes to (sidecar/thread-priority.ts).
  lowerProcessPriority();
  const { config, urls } = readEntryConfig({ demoFallback: true });
  const { pingOnly, requireService, newLog } = readArguments(process.argv.slice(2));
  if (pingOnly !== undefined) await runPingOnly(pingOnly, config, urls);
  // Before building: the service running on DIST_DIR (where it listens, whatever PORT says here), or
  // the one at HOST:PORT, must serve this PUBLIC_URL.
  const running = await checkRunningService(config, 'Nothing published');
  if (!running.ok) {
    console.error(running.message);
    process.exit(1);
  }
  const serviceUrl = running.service?.url ?? config.serviceUrl;
  const mismatch = await findPublicUrlMismatch(serviceUrl, config.publicUrl);
  if (mismatch) {
    console.error(mismatch);
    process.exit(1);
  }
  const build = { ...buildOptionsFor(config), newLog };
  const result = await publishSite({ build, urls, serviceUrl, store: { dataDir: config.dataDir, databaseUrl: config.databaseUrl }, onWarning: (line) => console.log(line) });
  if (!result.ok && result.stage === 'build') {
    console.error(result.message);
    console.error(`Nothing was published: ${build.outDir}/ and the running service keep the last good build.`);
    process.exit(1);
  }
  const seconds = result.ok ? ` in ${(result.ms / 1000).toFixed(1)} s` : '';
  console.log(`Built ${Object.keys(result.manifest.files).length} files into ${build.outDir}/${seconds} (build ${result.manifest.build_id}).`);
  if (!result.ok && result.stage === 'record') {
    console.error(
      `No service is running at ${serviceUrl}, and the change could not be recorded for the subscribers: ${result.message}\n` +
        `The build is in place; the next start serves it and notifies the subscribers of the changed topics, if its store works then.`,
    );
    process.exit(1);
  }
  if (!result.ok) {
    console.error(`Could not notify the running service: ${result.message}`);
    process.exit(1);
  }
  const recorder = result.service === 'not-running' ? "The hub's store" : 'The hub';
  for (const line of describeVerdicts(recorder, result.topics)) console.log(line);
  const notified = result.topics.reduce((sum, t) => sum + t.subscribers, 0);
  if (result.service === 'not-running') {
    console.log(
      `No service is running at ${serviceUrl}: the change is recorded in the hub's store ` +
        `(${plural(result.queued, 'notification', { format: String })} queued); the next start serves this build and sends them.`,
    );
    if (requireService) {
      // The git hooks ask for a running service: a deployment elsewhere (containers) got nothing.
      console.error(
        `No running service received build ${result.manifest.build_id}. If the service runs elsewhere (in containers), this commit reached nothing: deploy it there (docs/deploy.md "Publishing into containers").`,
      );
      process.exit(3);
    }
  } else if (result.service === 'not-recorded') {
    console.log(`Not recorded by the hub yet: ${result.unrecorded.join(', ')}`);
    console.error(
      `The service at ${serviceUrl} now serves build ${result.manifest.build_id}, but its hub could not record the change in its store (${result.message}).\n` +
        `Nothing more to do: the hub retries by itself, and once its store answers again it re-reads every topic of the build it serves ` +
        `(its build check) and notifies the subscribers of each topic that changed. Until then nobody is notified; /readyz names the store's problem.`,
    );
    process.exit(4);
  } else {
    console.log(
      `The service at ${serviceUrl} now serves build ${result.manifest.build_id}` +
        (notified > 0
          ? `; its hub is notifying ${plural(notified, 'subscriber', { format: String })} of the changed topics.`
          : result.topics.some((t) => t.changed)
            ? '; the changed topics have no subscribers, so nobody is notified.'
            : '; its hub found no topic changed, so nobody is notified.'),
    );
  }
}

/** The hub's verdict, one line per topic (slice feeds included): changed ones first, with their subscribers. */
function describeVerdicts(recorder: string, topics: readonly TopicVerdict[]): string[] {
  const changed = topics.filter((t) => t.changed);
  const unchanged = topics.filter((t) => !t.changed);
  return [
    `${recorder} recorded ${plural(topics.length, 'topic', { format: String })}: ${changed.length} changed, ${unchanged.length} unchanged.`,
    ...changed.map((t) => `  changed    ${t.topic} (${plural(t.subscribers, 'subscriber', { format: String })})`),
    ...unchanged.map((t) => `  unchanged  ${t.topic}`),
  ];
}

/**
 * `--ping-only <sidecar URL>` (undefined for a whole publish) and `--require-service` (exit 3 when no
 * service answers, the git hooks' choice); a bad command line exits 2.
 */
function readArguments(argv: string[]): { pingOnly: string | undefined; requireService: boolean; newLog: boolean } {
  let values: { 'ping-only'?: string; 'require-service'?: boolean; 'new-log'?: boolean };
  try {
    values = parseArgs({ args: argv, options: { 'ping-only': { type: 'string' }, 'require-service': { type: 'boolean' }, 'new-log': { type: 'boolean' } }, strict: true }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\nusage: npm run publish [-- --require-service] [-- --new-log] | [-- --ping-only <sidecar URL>]`);
    process.exit(2);
  }
  const value = values['ping-only'];
  if (value !== undefined && !/^https?:\/\/[^/]/.test(value)) {
    console.error(`--ping-only: "${value}" is not an http(s) URL of a sidecar, e.g. https://reviews.example.com`);
    process.exit(2);
  }
  return { pingOnly: value?.replace(/\/+$/, ''), requireService: values['require-service'] ?? false, newLog: values['new-log'] ?? false };
}

async function runPingOnly(sidecarUrl: string, config: Config, urls: ServiceUrls): Promise<never> {
  const result = await pingHub({ serviceUrl: sidecarUrl, urls, manifest: await readManifest(config.distDir) });
  if (!result.ok) {
    console.error(`Could not notify the sidecar: ${result.message}`);
    process.exit(1);
  }
  console.log(`Pinged the hub at ${sidecarUrl}${PATHS.hub} for ${result.topics.join(', ')}.`);
  console.log(
    result.confirmed
      ? `The sidecar serves the build in ${config.distDir}/; its hub is notifying the subscribers of each topic whose bytes changed.`
      : `Its hub notifies the subscribers of each topic whose bytes changed (no build in ${config.distDir}/ to compare with what it serves).`,
  );
  process.exit(0);
}

/**
 * The running service's PUBLIC_URL (its `/healthz` names it) against this one: a build for another
 * origin would put wrong links in every page and feed, so publish refuses before building. No
 * service, or one that does not say: nothing to compare.
 */
export async function findPublicUrlMismatch(serviceUrl: string, publicUrl: string): Promise<string | undefined> {
  const health = await fetch(`${serviceUrl}${PATHS.health}`, { signal: AbortSignal.timeout(5_000) })
    .then((response) => response.json() as Promise<{ public_url?: unknown }>)
    .catch(() => undefined);
  const served = health?.public_url;
  if (typeof served !== 'string' || served === publicUrl) return undefined;
  return `Nothing published: PUBLIC_URL here is ${publicUrl} but the service at ${serviceUrl} runs with ${served}; set the same PUBLIC_URL for both (in .env).`;
}
