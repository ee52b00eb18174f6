/**
 * deploy/compose.yaml as run.sh runs it on a machine with no public ports to give: the same services and
 * settings, with the build context and the Caddyfile as absolute paths (the copy lives in a work folder),
 * Caddy published on loopback only (an override file would add ports, not replace them), and every
 * `${VAR}`, `${VAR:-default}` and `${VAR:?message}` replaced from the work folder's .env as Docker Compose
 * would (podman-compose 1.0.3 leaves some of them as they are), without the services of a profile.
 *
 *   node tools/deploy-kit/kit-compose.ts <work folder> <loopback port>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { parse, stringify } from 'yaml';

const [workDir, port] = process.argv.slice(2);
if (!workDir || !port) {
  console.error('usage: node tools/deploy-kit/kit-compose.ts <work folder> <loopback port>');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '../..');
type Service = { build?: { context: string }; volumes?: string[]; ports?: string[]; profiles?: string[] };
const vars = parseEnv(readFileSync(path.join(workDir, '.env'), 'utf8'));
const interpolate = (text: string) =>
  text.replace(/\$\{(\w+)(?:(:?[-?])([^}]*))?\}/g, (_, name: string, op: string | undefined, arg: string) => {
    const value = vars[name];
    const unset = value === undefined || (op?.startsWith(':') === true && value === '');
    if (!unset) return value!;
    if (op?.endsWith('?')) throw new Error(`${name}: ${arg}`);
    return op ? arg : '';
  });
const resolve = (value: unknown): unknown =>
  typeof value === 'string'
    ? interpolate(value)
    : Array.isArray(value)
      ? value.map(resolve)
      : value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).filter(([key]) => !key.startsWith('x-')).map(([key, v]) => [key, resolve(v)]))
        : value;
const compose = resolve(parse(readFileSync(path.join(root, 'deploy/compose.yaml'), 'utf8'), { merge: true })) as { services: Record<string, Service> };
// Services under a profile (the sync) are not started by `up`; podman-compose 1.0.3 knows no profiles.
for (const [name, service] of Object.entries(compose.services)) if (service.profiles) delete compose.services[name];
for (const service of Object.values(compose.services)) {
  if (service.build) service.build.context = root;
  service.volumes = service.volumes?.map((v) => (v.startsWith('./') ? path.join(root, 'deploy', v) : v));
}
compose.services.caddy!.ports = [`127.0.0.1:${port}:80`];
writeFileSync(path.join(workDir, 'compose.yaml'), stringify(compose));
