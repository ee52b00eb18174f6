/**
 * The running service with a WebSub subscriber of `/reviews.json`: the real sidecar on an ephemeral
 * port over a build of `contentDir`, and a real HTTPS subscriber (test CA) whose subscription the hub
 * has verified.
 */
import path from 'node:path';
import { createServiceUrls } from '../../core/urls.ts';
import { startSubscriber } from '../websub/subscriber.ts';
import { createTestCa } from '../../tools/lib/https-ca.ts';
import { startTestSidecar } from './sidecar.ts';
import { buildTestSite } from './site-build.ts';

export const REVIEWS_CALLBACK = '/sub/reviews-json';

export async function startSubscribedService(options: { contentDir: string; distDir: string; workDir: string; publicUrl: string }) {
  const ca = createTestCa();
  const subscriber = await startSubscriber(ca);
  await buildTestSite({ contentDir: options.contentDir, outDir: options.distDir, publicUrl: options.publicUrl, dataDir: path.join(options.workDir, 'data') });
  const service = await startTestSidecar({
    distDir: options.distDir,
    publicUrl: options.publicUrl,
    env: { DATA_DIR: path.join(options.workDir, 'data'), WEBSUB_ALLOW_PRIVATE_CALLBACKS: 'true' },
    sidecar: { callbackClient: { ca: ca.certPem } },
  });
  const response = await fetch(`${service.url}/api/websub/hub`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      'hub.mode': 'subscribe',
      'hub.topic': createServiceUrls(options.publicUrl).reviewsJson,
      'hub.callback': subscriber.callback(REVIEWS_CALLBACK),
    }).toString(),
  });
  if (response.status !== 202) throw new Error(`subscribe answered ${response.status}`);
  await service.hub.settled();
  if (subscriber.verifications(REVIEWS_CALLBACK).length !== 1) throw new Error('the subscription was not verified');
  return {
    service,
    subscriber,
    async close() {
      await service.close();
      await subscriber.close();
      ca.remove();
    },
  };
}
