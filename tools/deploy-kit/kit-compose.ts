/**
 * deploy/compose.yaml as run.sh runs it on a machine with no public ports to give: the same services and
 * settings, with the build context and the Caddyfile as absolute paths (the copy lives in a work folder)
 * and Caddy published on loopback only (an override file would add ports, not replace them).
 *
 *   node tools/deploy-kit/kit-compose.ts <work folder> <loopback port>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';

const [workDir, port] = process.argv.slice(2);
if (!workDir || !port) {
  console.error('usage: node tools/deploy-kit/kit-compose.ts <work folder> <loopback port>');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '../..');
type Service = { build?: { context: string }; volumes?: string[]; ports?: string[] };
const compose = parse(readFileSync(path.join(root, 'deploy/compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
for (const service of Object.values(compose.services)) {
  if (service.build) service.build.context = root;
  service.volumes = service.volumes?.map((v) => (v.startsWith('./') ? path.join(root, 'deploy', v) : v));
}
compose.services.caddy!.ports = [`127.0.0.1:${port}:80`];
writeFileSync(path.join(workDir, 'compose.yaml'), stringify(compose));
