/**
 * Probes for load balancers and orchestrators. `/healthz` is 200 whenever the process serves HTTP
 * (liveness: restart only if this fails) and names the service's PUBLIC_URL (`npm run publish` refuses to
 * build for another one). `/readyz` means "can serve": 200 while a build is loaded and no stop is under
 * way, 503 from the moment a stop begins (the drain). Its body (core/schemas/readiness.ts) also reports,
 * apart, what changes no status: the hub's store (the hub's own routes answer 503 while it is away; pages,
 * datasets, search and MCP do not need it) and a newer build that could not be loaded.
 */
import type { Router } from 'express';
import type { Readiness, StoreState } from '../../core/schemas/readiness.ts';
import type { BuildStore } from '../builds/build-store.ts';
import { methodNotAllowed } from '../http/errors.ts';
import { createStrictRouter } from '../http/strict-router.ts';
import { PATHS } from '../../core/urls.ts';


export type StoreStatus = { state: StoreState; detail: string };

export type ReadinessSources = {
  builds: Pick<BuildStore, 'current' | 'failure'>;
  store: () => StoreStatus;
  draining: () => boolean;
};

export function createHealthRouter(deps: { readiness: ReadinessSources; publicUrl: string }): Router {
  const router = createStrictRouter();
  const noStore = { 'Cache-Control': 'no-store' };
  router
    .route(PATHS.health)
    .get((_req, res) => void res.set(noStore).json({ status: 'ok', public_url: deps.publicUrl }))
    .all(() => {
      throw methodNotAllowed(['GET', 'HEAD']);
    });
  router
    .route(PATHS.ready)
    .get((_req, res) => {
      const body = readinessOf(deps.readiness);
      if (body.status === 'ready') return void res.set(noStore).json(body);
      res.status(503).set({ ...noStore, 'Retry-After': '5' }).json(body);
    })
    .all(() => {
      throw methodNotAllowed(['GET', 'HEAD']);
    });
  return router;
}

export function readinessOf(sources: ReadinessSources): Readiness {
  const failure = sources.builds.failure();
  const build = {
    served: sources.builds.current().id,
    failed: failure ? { build: failure.id ?? null, dir: failure.dir, message: failure.message } : null,
  };
  const store = sources.store();
  if (!sources.draining()) return { status: 'ready', build, store, draining: false };
  return { status: 'not_ready', build, store, draining: true, error: 'not_ready', message: 'Not ready: the service is shutting down.' };
}

/** The hub's store as `/readyz` and the `reviews_websub_store_up` metric report it. */
export function storeStatusOf(open: boolean, health: { ok: true } | { ok: false; problem: string }): StoreStatus {
  if (!open) return { state: 'unavailable', detail: 'the WebSub store is unavailable' };
  if (!health.ok) return { state: 'failing', detail: `the WebSub store is failing: ${health.problem}` };
  return { state: 'open', detail: 'open' };
}
