/**
 * Fair verifications (issue 31 item 3): 16 slow callback hosts on 16 addresses, each with more
 * verifications under way than its share, used to fill every outgoing slot (64, 8 per domain) for as long
 * as they took to answer, and a real subscriber's verification waited behind them with its time limit
 * running. Now a host with nothing in flight finds a slot kept for it, and the subscriber is verified in
 * under a second. Real HTTPS on loopback addresses 127.0.0.2–17 with the suite's test CA.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestCa, startHttpsCallbackServer, type HttpsCallbackServer, type TestCa } from '../../tools/lib/https-ca.ts';
import { startHubHarness } from './harness.ts';
import { startSubscriber, type Subscriber } from './subscriber.ts';

let ca: TestCa;
const slowHosts: HttpsCallbackServer[] = [];
let realHost: Subscriber;
const slowAnswers = Promise.withResolvers<void>();

beforeAll(async () => {
  ca = createTestCa();
  for (let i = 2; i < 18; i++) {
    const host = `127.0.0.${i}`;
    // Answers a verification correctly, once the test is over.
    const slow = await startHttpsCallbackServer({
      ca,
      host,
      names: [host],
      handler: (req, res) => void slowAnswers.promise.then(() => res.writeHead(200).end(req.query.get('hub.challenge') ?? '')),
    });
    slowHosts.push(slow);
  }
  realHost = await startSubscriber(ca, '127.0.0.1');
});
afterAll(async () => {
  slowAnswers.resolve();
  await Promise.all(slowHosts.map((host) => host.close()));
  await realHost?.close();
  ca?.remove();
});

describe('verifications under slow callback hosts', () => {
  it('verifies a real subscriber in under a second while 16 slow hosts hold their verifications', async () => {
    const h = await startHubHarness({ ca, client: { connectTimeoutMs: 5_000, responseTimeoutMs: 10_000 } });
    try {
      for (const host of slowHosts) {
        for (let i = 0; i < 10; i++) expect((await h.subscribe(host.url(`/slow-${i}`), h.topics.feedXml)).status).toBe(202);
      }
      // Every slow host has a verification open (8 each would fill all 64 slots).
      await Promise.all(slowHosts.map((host) => host.waitForRequest((r) => r.path === '/slow-0')));

      const callback = realHost.callback('/real');
      const started = Date.now();
      expect((await h.subscribe(callback, h.topics.feedXml)).status).toBe(202);
      await h.waitForSubscription(h.topics.feedXml, callback);
      expect(Date.now() - started).toBeLessThan(1_000);
    } finally {
      await h.close();
    }
  });
});
