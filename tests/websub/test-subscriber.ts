/**
 * The set-up most WebSub test files share: a private test CA, trusted by the hub's callback client
 * (`t.ca`), and an HTTPS subscriber with a certificate from it (`t.sub`). Registered as the file's
 * first hooks, so the file's own `beforeAll` can use both; closed and removed after the file.
 */
import { afterAll, beforeAll } from 'vitest';
import { createTestCa, type TestCa } from '../../tools/lib/https-ca.ts';
import { startSubscriber, type Subscriber } from './subscriber.ts';

export type TestSubscriber = { readonly ca: TestCa; readonly sub: Subscriber };

export function useTestSubscriber(): TestSubscriber {
  let ca: TestCa | undefined;
  let sub: Subscriber | undefined;
  beforeAll(async () => {
    ca = createTestCa();
    sub = await startSubscriber(ca);
  });
  afterAll(async () => {
    await sub?.close();
    ca?.remove();
  });
  return {
    get ca() {
      if (ca === undefined) throw new Error('useTestSubscriber: the test CA exists only inside hooks and tests');
      return ca;
    },
    get sub() {
      if (sub === undefined) throw new Error('useTestSubscriber: the subscriber exists only inside hooks and tests');
      return sub;
    },
  };
}
