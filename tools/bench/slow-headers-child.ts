/**
 * The slow-header attacker of `npm run bench -- abuse` (the re-opening case), in its own process so that
 * its tens of thousands of sockets do not slow the legitimate client it is measured against. Keeps
 * `count` half-sent requests open from `addresses` loopback addresses, re-opening each one the moment the
 * server closes it; prints `filled` once all are open, and `{"opened","closed"}` when its stdin closes.
 *
 * Usage: node tools/bench/slow-headers-child.ts <port> <count> <addresses>
 */
import { connect } from 'node:net';

const [port, count, addresses] = process.argv.slice(2).map(Number) as [number, number, number];
const loopback = (i: number) => `127.0.${Math.floor(i / 250) + 1}.${(i % 250) + 1}`;
let stopping = false;
let opened = 0;
let closed = 0;
const live = new Set<ReturnType<typeof connect>>();

function holdSlot(i: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: loopback(i % addresses) });
    live.add(socket);
    socket.on('error', () => {});
    // Read (and drop) what the server sends, so its close is seen at once.
    socket.resume();
    socket.once('connect', () => {
      opened += 1;
      socket.write('GET /reviews.json HTTP/1.1\r\nHost: x\r\nX-Slow: ');
      resolve();
    });
    socket.once('close', () => {
      live.delete(socket);
      resolve();
      if (stopping) return;
      closed += 1;
      void holdSlot(i);
    });
  });
}

for (let i = 0; i < count; i += 500) {
  await Promise.all(Array.from({ length: Math.min(500, count - i) }, (_, k) => holdSlot(i + k)));
}
process.stdout.write('filled\n');
process.stdin.resume();
process.stdin.on('end', () => {
  stopping = true;
  for (const socket of live) socket.destroy();
  process.stdout.write(`${JSON.stringify({ opened, closed })}\n`);
  process.exit(0);
});
