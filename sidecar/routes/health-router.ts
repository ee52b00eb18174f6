/**
 * Probes for load balancers and orchestrators. `/healthz` is 200 whenever the process serves HTTP
 * (liveness: restart only if this fails) and names the service's PUBLIC_URL (`npm run publish` refuses to
 * build for another one). `/readyz` is 200 when everything is in place — a build is
 * loaded and the hub's store is open — and 503 with the missing parts otherwise (readiness: send no
 * traffic yet, or only the read traffic that needs no store).
 */
import type { Router } from 'express';
import { HttpError, methodNotAllowed } from '../http/errors.ts';
import { createStrictRouter } from '../http/strict-router.ts';

export type ReadinessCheck = { name: string; ok: boolean; detail: string };

export const HEALTH_PATHS = { health: '/healthz', ready: '/readyz' } as const;

export function createHealthRouter(deps: { checks: () => ReadinessCheck[]; publicUrl: string }): Router {
  const router = createStrictRouter();
  const noStore = { 'Cache-Control': 'no-store' };
  router
    .route(HEALTH_PATHS.health)
    .get((_req, res) => void res.set(noStore).json({ status: 'ok', public_url: deps.publicUrl }))
    .all(() => {
      throw methodNotAllowed(['GET', 'HEAD']);
    });
  router
    .route(HEALTH_PATHS.ready)
    .get((_req, res) => {
      const checks = deps.checks();
      const missing = checks.filter((c) => !c.ok);
      if (missing.length > 0) {
        throw new HttpError(503, 'not_ready', `Not ready: ${missing.map((c) => c.detail).join('; ')}.`, { headers: { 'Retry-After': '5' } });
      }
      res.set(noStore).json({ status: 'ready', checks: Object.fromEntries(checks.map((c) => [c.name, c.detail])) });
    })
    .all(() => {
      throw methodNotAllowed(['GET', 'HEAD']);
    });
  return router;
}
