/** Admission (sidecar/websub/requests/admission.ts): the busy, per-host and subscription limits, and the pending ledger. */
import { describe, expect, it } from 'vitest';
import { createAdmission } from '../../sidecar/websub/requests/admission.ts';

const limits = { maxPendingVerifications: 4, maxPendingVerificationsPerHost: 2, maxSubscriptionsPerHost: 3 };
const keys = (domain: string, address: string) => ({ domain, address });
const admitOk = (admission: ReturnType<typeof createAdmission>, request: Parameters<ReturnType<typeof createAdmission>['admit']>[0]) => {
  const admitted = admission.admit(request);
  if (!admitted.ok) throw new Error(`refused: ${admitted.refusal.body.message}`);
  return admitted.release;
};

describe('createAdmission', () => {
  it('is busy once maxPendingVerifications verifications are under way, and free again after a release', () => {
    const admission = createAdmission(limits);
    const releases = ['a', 'b', 'c', 'd'].map((d) => admitOk(admission, { keys: keys(`${d}.example`, `10.0.0.${d.charCodeAt(0)}`), newSubscription: false }));
    expect(admission.pending()).toBe(4);
    expect(admission.busy()).toMatchObject({ status: 503, body: { error: 'hub_busy' }, retryAfterSeconds: 5 });
    releases[0]!();
    expect(admission.busy()).toBeUndefined();
  });

  it.each([
    ['domain', keys('slow.example', '10.0.0.9'), 'domain slow.example'],
    ['address', keys('other.example', '10.0.0.1'), 'address 10.0.0.1'],
  ])('refuses a third verification on one %s with 503 callback_host_busy naming it', (_, third, named) => {
    const admission = createAdmission(limits);
    admitOk(admission, { keys: keys('slow.example', '10.0.0.1'), newSubscription: false });
    admitOk(admission, { keys: keys('slow.example', '10.0.0.1'), newSubscription: false });
    expect(admission.hostBusy(third)).toMatchObject({ status: 503, body: { error: 'callback_host_busy', message: expect.stringContaining(named) } });
    const refused = admission.admit({ keys: third, newSubscription: false });
    expect(refused).toMatchObject({ ok: false, refusal: { body: { error: 'callback_host_busy' }, retryAfterSeconds: 30 } });
    expect(admission.hostBusy(keys('free.example', '10.0.0.2'))).toBeUndefined();
  });

  it('names the domain when domain and address are equally busy', () => {
    const admission = createAdmission(limits);
    admitOk(admission, { keys: keys('slow.example', '10.0.0.1'), newSubscription: false });
    admitOk(admission, { keys: keys('slow.example', '10.0.0.1'), newSubscription: false });
    expect(admission.hostBusy(keys('slow.example', '10.0.0.1'))?.body.message).toContain('domain slow.example');
  });

  it('counts stored subscriptions and those being verified against the cap, by domain or by address', () => {
    const admission = createAdmission({ ...limits, maxPendingVerificationsPerHost: 10 });
    admitOk(admission, { keys: keys('full.example', '10.0.0.1'), newSubscription: true, stored: { domain: 1, address: 0 } });
    const refused = admission.admit({ keys: keys('full.example', '10.0.0.7'), newSubscription: true, stored: { domain: 2, address: 0 } });
    expect(refused).toMatchObject({
      ok: false,
      refusal: { status: 403, body: { error: 'subscription_limit', message: expect.stringContaining('domain full.example already hold 3'), issues: [{ path: ['hub.callback'], code: 'too_many_subscriptions' }] } },
    });
    const byAddress = admission.admit({ keys: keys('new.example', '10.0.0.1'), newSubscription: true, stored: { domain: 0, address: 2 } });
    expect(byAddress).toMatchObject({ ok: false, refusal: { body: { message: expect.stringContaining('address 10.0.0.1 already hold 3') } } });
  });

  it('lets a renewal or an unsubscribe past the cap (it adds no subscription)', () => {
    const admission = createAdmission(limits);
    expect(admission.admit({ keys: keys('full.example', '10.0.0.1'), newSubscription: false, stored: { domain: 3, address: 3 } }).ok).toBe(true);
  });

  it('gives a place back once, however often release is called', () => {
    const admission = createAdmission(limits);
    const first = admitOk(admission, { keys: keys('a.example', '10.0.0.1'), newSubscription: true });
    admitOk(admission, { keys: keys('a.example', '10.0.0.1'), newSubscription: true });
    first();
    first();
    expect(admission.pending()).toBe(1);
    expect(admission.hostBusy(keys('a.example', '10.0.0.1'))).toBeUndefined();
    admitOk(admission, { keys: keys('a.example', '10.0.0.1'), newSubscription: true });
    expect(admission.hostBusy(keys('a.example', '10.0.0.1'))).toBeDefined();
  });
});
