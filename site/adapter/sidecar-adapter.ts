/**
 * The Astro adapter of this project: the sidecar renders the on-demand pages (the search page) itself,
 * so the build's server code only has to hand it a render function. Written to Astro's adapter API
 * (setAdapter with a server entrypoint, "Adapter API" in Astro's docs); the entrypoint, page-entry.ts,
 * uses the public `createApp` of `astro/app/entrypoint`. Nothing here runs a server or adds listeners.
 */
import type { AstroIntegration } from 'astro';

const NAME = 'reviews-sidecar';

export function sidecarAdapter(): AstroIntegration {
  return {
    name: NAME,
    hooks: {
      'astro:config:done': ({ setAdapter }) => {
        setAdapter({
          name: NAME,
          entrypointResolution: 'auto',
          serverEntrypoint: new URL('./page-entry.ts', import.meta.url),
          adapterFeatures: { buildOutput: 'server' },
          supportedAstroFeatures: { staticOutput: 'stable', hybridOutput: 'stable', serverOutput: 'stable' },
        });
      },
    },
  };
}
