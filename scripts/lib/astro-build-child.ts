/**
 * Runs one `astro build` in its own process (a fresh module graph every time, so one build's
 * data can never leak into the next) and prints its peak memory as the last stdout line.
 * Arguments come from the environment set by run-astro-build.ts.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AstroInlineConfig } from 'astro';
import { lowerProcessPriority } from '../../sidecar/thread-priority.ts';

// Before Astro loads: the build gives way to a service on the same machine (sidecar/thread-priority.ts),
// however the build was started (`npm start` builds in the process that then serves, at normal priority).
lowerProcessPriority();
const { build } = await import('astro');
const root = process.env.ASTRO_ROOT ?? process.cwd();
// The config imported here, not by Astro: it imports it under a new URL at each build (`?t=<time>`),
// which Node's compile cache keeps as one more module each time (scripts/build.ts `astroWorkDirOf`).
const { default: config } = (await import(pathToFileURL(path.join(root, 'astro.config.mjs')).href)) as { default: AstroInlineConfig };
await build({ ...config, root, configFile: false, logLevel: process.env.ASTRO_LOG_LEVEL === 'info' ? 'info' : 'warn' });
process.stdout.write(`\n${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
