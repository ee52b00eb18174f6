/**
 * A plain static file server, as a CDN or any web host serves a copy of a build: GET a path, get the
 * file's bytes (with the Content-Type its name gives, as every host sets one: browsers run no module
 * script without it) or a 404. Nothing of the service runs behind it.
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { contentTypeOf } from '../../core/publishing/headers.ts';

export type StaticServer = { url: string; close(): Promise<void> };

export async function startStaticServer(root: string): Promise<StaticServer> {
  const server = createServer(async (req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const file = path.join(root, pathname.endsWith('/') ? `${pathname}index.html` : pathname);
    if (!file.startsWith(root + path.sep)) return void res.writeHead(400).end();
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-length': body.length, 'content-type': contentTypeOf(pathname) }).end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
