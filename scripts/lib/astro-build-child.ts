/**
 * Runs one `astro build` in its own process (a fresh module graph every time, so one build's
 * data can never leak into the next) and prints its peak memory as the last stdout line.
 * Arguments come from the environment set by run-astro-build.ts.
 */
import { build } from 'astro';

await build({ root: process.env.ASTRO_ROOT ?? process.cwd(), logLevel: process.env.ASTRO_LOG_LEVEL === 'info' ? 'info' : 'warn' });
process.stdout.write(`\n${JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024 })}\n`);
