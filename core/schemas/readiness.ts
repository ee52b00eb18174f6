/**
 * `/readyz`'s body, the same shape at 200 and 503: what a load balancer, an operator and `npm run publish`
 * read from a running service. Readiness means "can serve": only a stop in progress (the drain) makes it
 * 503. The hub's store and a newer build that could not be loaded are reported here, apart, and change
 * no status: the service still serves its pages, datasets, search and MCP from its last good build.
 */
import { z } from 'zod';

export const BuildLoadFailureSchema = z
  .object({
    build: z.string().nullable().meta({ description: "The failed build's id (its manifest's `build_id`); null when its manifest could not be read." }),
    dir: z.string().meta({ description: 'The folder the build was loaded from.' }),
    message: z.string().meta({ description: 'Why it could not be loaded.' }),
  })
  .meta({ description: 'A newer build on disk that could not be loaded; the service keeps serving `served`.' });

export const StoreStateSchema = z.enum(['open', 'failing', 'unavailable']).meta({
  description: "The WebSub hub's store: `open`, `failing` its last check, or `unavailable` (not reachable yet). The hub's own routes answer 503 unless it is `open`.",
});

export const ReadinessSchema = z.object({
  status: z.enum(['ready', 'not_ready']),
  build: z.object({
    served: z.string().meta({ description: "The build served: its manifest's `build_id` (the content hash)." }),
    failed: BuildLoadFailureSchema.nullable(),
  }),
  store: z.object({ state: StoreStateSchema, detail: z.string() }),
  draining: z.boolean().meta({ description: 'True once a stop (SIGTERM, SIGINT) began: the service finishes what it has and takes nothing new.' }),
  /** Only at 503, the service's error envelope for a person. */
  error: z.literal('not_ready').optional(),
  message: z.string().optional(),
});

export type Readiness = z.infer<typeof ReadinessSchema>;
export type StoreState = z.infer<typeof StoreStateSchema>;
