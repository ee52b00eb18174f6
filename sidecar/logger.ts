/**
 * The service's one log vocabulary: structured JSON on stdout, one object per line
 * (`{"time","level","event",...fields}`), at or above `LOG_LEVEL`. Every event name is listed in
 * `LOG_EVENTS` with what it means, in snake_case, so an operator can grep and alert on it; docs/operations.md's
 * "Logs" section lists the same names (a test compares them). To log something new, add its name here
 * first. The sidecar, the WebSub hub and the build store all take this `Logger`.
 *
 * pino was considered: its default line shape (numeric levels, `msg`, pid, hostname) would change
 * what operators already match, and the dozen lines below do all this service needs.
 */
export const LOG_EVENTS = {
  listening: 'The service accepts connections: `url`, `public_url`, `build`.',
  request: 'One per answered request (ACCESS_LOG): `method`, `path` (as sent, with the PUBLIC_URL path), `query` (when there is one), `status`, `bytes` (body), `ms`, `client` (as TRUST_PROXY allows), `agent` and `referer` (when sent), `completed: false` when the connection closed first.',
  shutdown_started: 'SIGTERM or SIGINT: /readyz answers 503, new connections are still answered for `drain_s` seconds (then none is accepted), requests in flight finish within `timeout_s`: `signal`, `drain_s`, `timeout_s`.',
  shutdown: 'How the shutdown ended: `outcome` (`clean`, `forced` when connections were cut at the time limit, `interrupted` by a second signal), `in_flight`, `cut_connections`, `deliveries_finished` and `deliveries_aborted` (WebSub deliveries in flight at the stop: answered within the time limit, or aborted and sent again by the next start), `ms`.',
  unhandled_error: 'A request failed on our side (answered 500): `path`, `error`.',
  build_swapped: 'A new build was loaded and is now served: `from`, `to` (build ids).',
  build_recovered: 'At start there was no build at DIST_DIR, so the last good one in .builds/ was linked back: `build`, `dist_dir`.',
  build_refused: 'A build on disk was made for another PUBLIC_URL or DIST_DIR, so it is not swapped in; the current one is still served and /readyz names the refused one (`build.failed`): `dir`, `build`, `why`, `serving`.',
  build_reload_failed: 'The build on disk could not be loaded; the current one is still served and /readyz names the failed one (`build.failed`): `dir`, `build` (when its manifest names it), `error`, `serving`.',
  websub_intent_verified: 'A subscriber confirmed a subscribe or unsubscribe: `mode`, `topic`, `callback`.',
  websub_intent_not_saved: 'A verified intent could not be stored (a subscribe is then denied): `mode`, `topic`, `callback`, `error`.',
  websub_intent_not_verified: 'A verification failed, so nothing changed: `mode`, `topic`, `callback`, `why`.',
  websub_topic_changed: "A topic's bytes changed and its subscribers are queued: `topic`, `hash`, `subscribers`.",
  websub_topics_recorded: 'The start-up comparison of every topic with the store, in one line: `topics`, `changed`, `subscribers` queued, and `changed_topics` when at most five changed.',
  websub_topic_unreadable: 'The hub could not read a topic from the build: `topic`, `error`.',
  websub_delivery_failed: 'One notification attempt failed: `topic`, `callback`, `failure`, `outcome` (`retry`, `removed`, or `lost-claim` when another instance took it over).',
  websub_subscription_gone: 'A callback answered 410 Gone, so its subscription was removed: `topic`, `callback`.',
  websub_topic_removed: 'A topic left the build (a technician or service removed), so its subscription was removed and the callback told `hub.mode=denied`: `topic`, `callback`.',
  websub_subscriptions_expired: 'Subscriptions whose lease ended were removed: `count`.',
  websub_delivery_without_content: 'A claimed delivery had no stored topic content and was given back: `topic`.',
  websub_delivery_loop_failed: 'The delivery loop hit an error and carries on, logged once until the error changes: `error`.',
  websub_delivery_loop_recovered: 'The delivery loop works again after `websub_delivery_loop_failed`: `was`, `repeats` (passes that failed the same way meanwhile).',
  websub_delivery_stopping: 'The hub stops delivering (the service is stopping): it claims no more, and the deliveries in flight get the grace period to be answered: `in_flight`, `grace_ms`.',
  websub_delivery_crashed: 'One delivery hit an unexpected error: `error`.',
  websub_store_unavailable: 'The hub could not reach its store and answers 503 (at start: `message`, naming DATA_DIR or DATABASE_URL; later: `error`).',
  websub_store_retry_failed: 'Opening the store failed again; the next try waits twice as long, up to a minute: `message`.',
  websub_store_opened: 'The store opened after failing at start: the hub accepts requests again.',
  websub_publish_not_recorded: 'A change could not be recorded in the store (a publish ping got 503); retried with backoff and when the store comes back: `topics`, `error`, `retry_in_ms`.',
  websub_store_failing: 'A store check or operation failed: `/readyz` reports it (`store.state` `failing`, still 200: the site serves), `reviews_websub_store_up` is 0, and the hub refuses new requests until a check passes: `problem`.',
  websub_store_recovered: 'The store passes its check again: every topic is compared with it and kept delivery outcomes are applied: `was`.',
  websub_store_recreated: 'An empty SQLite store was created where one existed before (its file was gone at start): `file`, `message`.',
  websub_outcomes_kept: 'Delivery outcomes the store could not record are held in memory until it comes back: `count`, `error`.',
  websub_outcomes_applied: 'Held delivery outcomes were written once the store came back: `count`.',
  websub_background_task_failed: 'A verification or publish ping hit an unexpected error: `error`.',
  witness_locked: 'The witness cannot read its state and cosigns nothing until the operator acts: `message`.',
  log_cosignatures: 'The running service asked the witnesses the served checkpoint lacks: `outcomes`.',
} as const;

export type LogEvent = keyof typeof LOG_EVENTS;

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;
export type Logger = Record<Exclude<LogLevel, 'silent'>, (event: LogEvent, fields?: Record<string, unknown>) => void>;

/** `write(line, soon)`: `soon` is false for the access log's lines, which may wait a little for others. */
export function createLogger(level: LogLevel, write: (line: string, soon: boolean) => void = writeStdout): Logger {
  const at = (name: Exclude<LogLevel, 'silent'>) => {
    if (LEVELS[name] < LEVELS[level]) return () => {};
    const head = `","level":"${name}","event":"`;
    return (event: LogEvent, fields?: Record<string, unknown>) => {
      // The same line as JSON.stringify({ time, level, event, ...fields }), without copying the fields.
      const rest = fields === undefined ? '}' : JSON.stringify(fields);
      write(`{"time":"${isoNow()}${head}${event}"${rest.length > 2 ? `,${rest.slice(1)}` : '}'}\n`, event !== 'request');
    };
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

let isoMs = 0;
let isoText = '';
/** The time of a line, formatted once per millisecond however many lines share it. */
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

let pending = '';
let soonScheduled = false;
let laterScheduled = false;
let exitHooked = false;
/** How long an access log line may wait for others: one is written per request. */
const ACCESS_LINES_WAIT_MS = 20;
/**
 * Lines go to stdout in batches instead of one system call per line. A line is written at the next turn
 * of the event loop, with whatever waits before it, so the log keeps its order. The access log's lines
 * wait up to ACCESS_LINES_WAIT_MS (or 64 KiB) for others: at 25,000 requests a second, a write per turn still cost about 0.9 µs a request (issue 32).
 * Whatever is pending is written when the process exits, also on an uncaught exception; a process killed
 * outright loses at most the last ACCESS_LINES_WAIT_MS of access lines.
 */
function writeStdout(line: string, soon: boolean): void {
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', flushStdout);
  }
  pending += line;
  if (pending.length >= 65_536) flushStdout();
  else if (soon) {
    if (!soonScheduled) {
      soonScheduled = true;
      setImmediate(flushSoon);
    }
  } else if (!laterScheduled) {
    laterScheduled = true;
    setTimeout(flushLater, ACCESS_LINES_WAIT_MS).unref();
  }
}

function flushSoon(): void {
  soonScheduled = false;
  flushStdout();
}

function flushLater(): void {
  laterScheduled = false;
  flushStdout();
}

function flushStdout(): void {
  if (pending === '') return;
  const text = pending;
  pending = '';
  process.stdout.write(text);
}

export const silentLogger: Logger = createLogger('silent');
