/**
 * `npm start`: builds from the content folder when the build is missing or stale (content, public
 * URL or build code changed), then serves the whole service on one origin. Without a content folder
 * (and no CONTENT_DIR) it serves the demo of examples/demo/ and says so (scripts/lib/entry-config.ts).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config.ts';
import type { ServiceUrls } from '../core/urls.ts';
import { runSidecar } from '../sidecar/main.ts';
import { readManifest, recoverBuild } from '../core/publishing/build-folders-fs.ts';
import { buildOptionsFor, buildSite } from './build.ts';
import { describeDemo, listConfigWarnings, readEntryConfig } from './lib/entry-config.ts';
import { computeSourceFingerprint } from './lib/source-fingerprint.ts';
import { checkRunningService, recordRunningService } from './lib/running-service.ts';

const { config, env, demo, urls } = readEntryConfig({ demoFallback: true });
if (demo) console.log(describeDemo());
for (const warning of listConfigWarnings(config, env)) console.warn(warning);
if (!statSync(config.contentDir, { throwIfNoEntry: false })?.isDirectory()) {
  console.error(`No content folder at ${path.resolve(config.contentDir)}: set CONTENT_DIR to the folder that holds business.json and reviews/.`);
  process.exit(1);
}
// Before anything is written: a service already on these folders (or for another address) refuses this one.
const running = await checkRunningService(config, 'Not started', { store: true });
if (!running.ok) {
  console.error(running.message);
  process.exit(1);
}
const options = buildOptionsFor(config);
// A publish killed at the wrong moment, or a deleted dist/: serve the last good build from .builds/.
const recovered = await recoverBuild(config.distDir);
if (recovered) console.log(`No build at ${config.distDir}/: restored the last good build (${recovered}) from .builds/.`);
const manifest = await readManifest(config.distDir);
const source = await computeSourceFingerprint(options);
if (!source.ok) {
  console.error(source.message);
  if (!manifest) process.exit(1);
  console.error('Serving the last good build.');
} else if (manifest?.source !== source.fingerprint) {
  console.log(manifest ? 'Content or code changed since the last build: rebuilding…' : 'No build yet: building…');
  const result = await buildSite(options, urls);
  if (!result.ok) {
    console.error(result.message);
    if (!manifest) process.exit(1);
    console.error('Serving the last good build.');
  } else {
    for (const warning of result.warnings) console.log(warning);
    console.log(`Built ${Object.keys(result.manifest.files).length} files in ${(result.ms / 1000).toFixed(1)} s.`);
  }
}
const sidecar = await runSidecar(config);
await recordRunningService(config.distDir, { publicUrl: config.publicUrl, url: sidecar.url });
console.log(describeOpenUrl(config, urls, sidecar.url));

/**
 * The last line of the start-up output, for people: the public URL when it is this machine on this
 * port (the default), else where this machine reaches the service, with the public URL beside it.
 */
function describeOpenUrl(config: Config, urls: ServiceUrls, listening: string): string {
  const port = new URL(listening).port;
  const local = new URL(config.serviceUrl);
  local.port = port;
  const publicUrl = new URL(config.publicUrl);
  if (['localhost', '127.0.0.1', '[::1]'].includes(publicUrl.hostname) && publicUrl.port === port) {
    return `Reviews service ready: open ${config.publicUrl}/ (Ctrl-C stops it)`;
  }
  return `Reviews service ready: open ${local.origin}${urls.basePath}/ (public URL ${config.publicUrl}; Ctrl-C stops it)`;
}
