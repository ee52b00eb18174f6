/**
 * `/metrics` in the Prometheus text format (issue 19 item 7), through prom-client, on a registry of its
 * own (two sidecars in one process, as in the tests, keep separate counts):
 *
 * - `reviews_http_requests_total{route,status}` and `reviews_http_request_duration_seconds{route}`:
 *   `route` is the Express route's path (`/api/reviews/search`, `/mcp`…), `static` for built files and
 *   `none` for what no route matched, so the label set stays small whatever clients ask for;
 * - `reviews_build_info{build}` (1) and `reviews_build_data_age_seconds` (since the dataset's Last-Modified);
 * - `reviews_websub_subscriptions`, `reviews_websub_deliveries_pending`,
 *   `reviews_websub_deliveries_failing` (pending after at least one failed attempt) and
 *   `reviews_websub_store_up` (1 when the hub's store is open);
 * - Node's process metrics (`process_*`, `nodejs_*`).
 *
 * The two request metrics are counted here, in plain numbers per route, and written out only when
 * `/metrics` is read: prom-client's labelled counters cost about a microsecond a request, which the
 * serving benchmark measures (issue 32).
 *
 * Who may read it: a request with `Authorization: Bearer <METRICS_TOKEN>`, or, without a token
 * configured, a request that came straight from loopback: judged by the socket's own address, never a
 * forwarded one (with TRUST_PROXY=true any client could name 127.0.0.1), and never a request that carries
 * `Forwarded` or `X-Forwarded-For` (a public request relayed by a proxy on the same machine).
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Router } from 'express';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { HttpError, methodNotAllowed } from './errors.ts';
import { createStrictRouter } from './strict-router.ts';
import type { FinishedRequest } from './request-front.ts';
import { PATHS } from '../../core/urls.ts';


export type MetricsSources = {
  build: () => { id: string; dataLastModifiedMs: number };
  storeUp: () => boolean;
  /** The hub's backlog; undefined while the store is unavailable. */
  hubCounts: () => Promise<{ subscriptions: number; pending: number; failing: number } | undefined>;
};

export type Metrics = {
  record(request: FinishedRequest, route: string): void;
  router(access: { token: string | undefined }): Router;
};

export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = createRequestCounts();
  let shownBuild: string | undefined;
  const buildInfo = new Gauge({
    name: 'reviews_build_info',
    help: 'The build being served (1 for its id).',
    labelNames: ['build'],
    registers: [registry],
    collect() {
      const { id } = sources.build();
      if (shownBuild !== id) this.reset();
      shownBuild = id;
      this.set({ build: id }, 1);
    },
  });
  new Gauge({
    name: 'reviews_build_data_age_seconds',
    help: "Seconds since the served dataset's Last-Modified.",
    registers: [registry],
    collect() {
      this.set(Math.max(0, (Date.now() - sources.build().dataLastModifiedMs) / 1000));
    },
  });
  new Gauge({
    name: 'reviews_websub_store_up',
    help: "1 when the WebSub hub's store is open, 0 when it cannot be reached.",
    registers: [registry],
    collect() {
      this.set(sources.storeUp() ? 1 : 0);
    },
  });
  const subscriptions = new Gauge({ name: 'reviews_websub_subscriptions', help: 'Active WebSub subscriptions.', registers: [registry] });
  const pending = new Gauge({ name: 'reviews_websub_deliveries_pending', help: 'Notifications waiting to be delivered.', registers: [registry] });
  const failing = new Gauge({ name: 'reviews_websub_deliveries_failing', help: 'Pending notifications whose last attempt failed (waiting for a retry).', registers: [registry] });
  void buildInfo;

  const render = async () => {
    const counts = await sources.hubCounts().catch(() => undefined);
    for (const [gauge, value] of [
      [subscriptions, counts?.subscriptions],
      [pending, counts?.pending],
      [failing, counts?.failing],
    ] as const) {
      // Unknown while the store is down: the series disappears rather than reading 0.
      if (value === undefined) gauge.reset();
      else gauge.set(value);
    }
    return `${await registry.metrics()}\n${requests.render()}`;
  };

  return {
    record(request, route) {
      requests.record(route, request.status, request.durationMs / 1000);
    },
    router({ token }) {
      const router = createStrictRouter();
      router
        .route(PATHS.metrics)
        .get(async (req, res) => {
          if (!mayReadMetrics({ remoteAddress: req.socket.remoteAddress, headers: req.headers }, token)) {
            throw new HttpError(
              403,
              'forbidden',
              token ? `${PATHS.metrics} needs the header Authorization: Bearer <METRICS_TOKEN>.` : `${PATHS.metrics} answers requests made on loopback, not through a proxy (or set METRICS_TOKEN).`,
              { cors: false },
            );
          }
          const text = await render();
          res.set({ 'Content-Type': registry.contentType, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).send(text);
        })
        .all(() => {
          throw methodNotAllowed(['GET', 'HEAD'], { cors: false });
        });
      return router;
    },
  };
}

const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

type RouteCounts = { statuses: Map<number, number>; buckets: Float64Array; count: number; sum: number };

/**
 * `reviews_http_requests_total{route,status}` and the histogram `reviews_http_request_duration_seconds{route}`,
 * in the text format prom-client writes (buckets cumulative, `+Inf` last, then `_sum` and `_count`).
 */
function createRequestCounts() {
  const routes = new Map<string, RouteCounts>();
  return {
    record(route: string, status: number, seconds: number): void {
      let counts = routes.get(route);
      if (counts === undefined) routes.set(route, (counts = { statuses: new Map(), buckets: new Float64Array(DURATION_BUCKETS.length + 1), count: 0, sum: 0 }));
      counts.statuses.set(status, (counts.statuses.get(status) ?? 0) + 1);
      let bucket = 0;
      while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
      counts.buckets[bucket]! += 1;
      counts.count += 1;
      counts.sum += seconds;
    },
    render(): string {
      const lines = [
        '# HELP reviews_http_requests_total HTTP requests answered, by route and status.',
        '# TYPE reviews_http_requests_total counter',
      ];
      for (const [route, counts] of routes) {
        for (const [status, n] of counts.statuses) lines.push(`reviews_http_requests_total{route="${escapeLabel(route)}",status="${status}"} ${n}`);
      }
      lines.push(
        '',
        '# HELP reviews_http_request_duration_seconds Time from the request to the end of its answer, by route.',
        '# TYPE reviews_http_request_duration_seconds histogram',
      );
      for (const [route, counts] of routes) {
        const label = escapeLabel(route);
        let cumulative = 0;
        for (const [i, le] of [...DURATION_BUCKETS, '+Inf'].entries()) {
          cumulative += counts.buckets[i]!;
          lines.push(`reviews_http_request_duration_seconds_bucket{le="${le}",route="${label}"} ${cumulative}`);
        }
        lines.push(`reviews_http_request_duration_seconds_sum{route="${label}"} ${counts.sum}`, `reviews_http_request_duration_seconds_count{route="${label}"} ${counts.count}`);
      }
      return `${lines.join('\n')}\n`;
    },
  };
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/**
 * Whether a request may read `/metrics`: the bearer of `token` when one is set; otherwise a request whose
 * socket is loopback and that names no client. The socket's address, never `X-Forwarded-For` or
 * `Forwarded`: with TRUST_PROXY those decide `req.ip`, and a spoofed `127.0.0.1` once read the metrics.
 */
export function mayReadMetrics(request: { remoteAddress: string | undefined; headers: IncomingHttpHeaders }, token: string | undefined): boolean {
  const { remoteAddress, headers } = request;
  if (token !== undefined) {
    const given = Buffer.from(/^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1] ?? '');
    const wanted = Buffer.from(token);
    return given.length === wanted.length && timingSafeEqual(given, wanted);
  }
  const forwarded = headers.forwarded !== undefined || headers['x-forwarded-for'] !== undefined;
  return !forwarded && isLoopback(remoteAddress ?? '');
}

function isLoopback(address: string): boolean {
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}
