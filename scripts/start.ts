/**
 * `npm start`: builds from the content folder when the build is missing or stale (content, public
 * URL or build code changed), then serves the whole service on one origin.
 */
import { runSidecar } from '../sidecar/main.ts';
import { buildOptionsFor, buildSite, readManifest } from './build.ts';
import { readConfigOrExit } from './lib/read-config.ts';
import { computeSourceFingerprint } from './lib/source-fingerprint.ts';

const config = readConfigOrExit();
const options = buildOptionsFor(config);
const manifest = await readManifest(config.distDir);
const fingerprint = await computeSourceFingerprint(options);
if (manifest?.source !== fingerprint) {
  console.log(manifest ? 'Content or code changed since the last build: rebuilding…' : 'No build yet: building…');
  const result = await buildSite(options);
  if (!result.ok) {
    console.error(result.message);
    if (!manifest) process.exit(1);
    console.error('Serving the last good build.');
  } else {
    console.log(`Built ${Object.keys(result.manifest.files).length} files in ${(result.ms / 1000).toFixed(1)} s.`);
  }
}
await runSidecar(config);
