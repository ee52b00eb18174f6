/**
 * nginx as the yardstick of `npm run bench -- serve`: one worker process serving a build's files from
 * disk as Debian configures it (sendfile, ETags, an access log to a file), on a free port of 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { waitFor } from './serve-tree.ts';
import { stopChild } from './child-process.ts';

export const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

export async function startNginx(distDir: string, workDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  await mkdir(workDir, { recursive: true });
  const port = await freePort();
  const config = path.join(workDir, 'nginx.conf');
  await writeFile(
    config,
    `worker_processes 1;
daemon off;
pid ${workDir}/nginx.pid;
error_log ${workDir}/error.log;
events { worker_connections 1024; }
http {
  access_log ${workDir}/access.log;
  client_body_temp_path ${workDir}/body;
  proxy_temp_path ${workDir}/proxy;
  fastcgi_temp_path ${workDir}/fastcgi;
  uwsgi_temp_path ${workDir}/uwsgi;
  scgi_temp_path ${workDir}/scgi;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { application/json json; text/html html; }
  server {
    listen 127.0.0.1:${port};
    root ${await realpath(distDir)};
  }
}
`,
  );
  const child = spawn(NGINX, ['-c', config, '-p', workDir], { stdio: 'ignore' });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`nginx exited with ${code} (see ${workDir}/error.log)`))));
  exited.catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  await Promise.race([exited, waitFor(() => fetch(`${url}/reviews.json`).then((r) => (r.ok ? true : undefined), () => undefined))]);
  return {
    url,
    // SIGQUIT: nginx's graceful stop.
    stop: () => stopChild(child, 'SIGQUIT'),
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
