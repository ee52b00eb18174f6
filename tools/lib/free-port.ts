/** A loopback port nothing listens on right now: bound once, then released, for a child to listen on. */
import { once } from 'node:events';
import { createServer } from 'node:net';

export async function findFreePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}
