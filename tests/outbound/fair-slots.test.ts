/**
 * The outbound client's slots (sidecar/outbound/fair-slots.ts, issue 31 item 3): a host with nothing in
 * flight always finds a slot however many slow hosts came first, domains take turns, and a request's
 * wait counts against it only while its own host is at its cap.
 */
import { describe, expect, it } from 'vitest';
import { createFairSlots, type Slot } from '../../sidecar/outbound/fair-slots.ts';

const limits = { overall: 8, perDomain: 2, perAddress: 2, reserve: 4 };
const keys = (n: number) => ({ domain: `host-${n}.example`, address: `192.0.2.${n}` });
const take = async (slots: ReturnType<typeof createFairSlots>, n: number, ownWaitLimitMs = 60_000) => {
  const slot = await slots.acquire(keys(n), { ownWaitLimitMs });
  if (typeof slot === 'string') throw new Error(`no slot: ${slot}`);
  return slot;
};

describe('fair slots', () => {
  it('keeps a slot for a host with nothing in flight however many busy hosts came first', async () => {
    const slots = createFairSlots(limits);
    const held: Slot[] = [];
    // Five hosts ask for two each: second slots only while fewer than overall - reserve (4) are in use,
    // so hosts 1 and 2 get two, hosts 3 to 5 one each, and their second requests wait.
    for (let host = 1; host <= 5; host++) {
      for (let i = 0; i < 2; i++) {
        const pending = slots.acquire(keys(host), { ownWaitLimitMs: 60_000 });
        const settled = await Promise.race([pending, new Promise((resolve) => setImmediate(() => resolve('queued')))]);
        if (settled !== 'queued') held.push(settled as Slot);
      }
    }
    expect(slots.active).toBe(7);
    // A sixth host gets the last slot at once; a seventh waits, and takes the next slot to free before
    // the busy hosts' second requests, which queued first.
    expect(await take(slots, 6)).toMatchObject({ ownWaitMs: 0 });
    expect(slots.active).toBe(8);
    const queued = slots.acquire(keys(7), { ownWaitLimitMs: 60_000 });
    held[0]!.release();
    expect(await queued).toMatchObject({ ownWaitMs: 0 });
    expect(slots.waiting).toBe(3);
  });

  it('gives a freed slot to the hosts in turn, not to the one that queued most', async () => {
    const slots = createFairSlots({ overall: 1, perDomain: 1, perAddress: 1, reserve: 0 });
    const first = await take(slots, 1);
    const order: number[] = [];
    const wait = (n: number) => slots.acquire(keys(n), { ownWaitLimitMs: 60_000 }).then((slot) => {
      order.push(n);
      if (typeof slot !== 'string') setImmediate(() => slot.release());
    });
    const all = [wait(1), wait(1), wait(1), wait(2)];
    first.release();
    await Promise.all(all);
    // In arrival order (FIFO) host 2 would come last.
    expect(order).toEqual([1, 2, 1, 1]);
  });

  it('counts a wait against a request only while its own host is at its cap', async () => {
    const slots = createFairSlots({ overall: 2, perDomain: 1, perAddress: 1, reserve: 0 });
    const a = await take(slots, 1);
    const b = await take(slots, 2);
    // Host 3 waits behind hosts 1 and 2 (the overall cap), never behind itself: no time limit applies.
    const behindOthers = slots.acquire(keys(3), { ownWaitLimitMs: 30 });
    // A second request of host 1 waits behind host 1's own: its 30 ms run out.
    const behindItself = slots.acquire(keys(1), { ownWaitLimitMs: 30 });
    expect(await behindItself).toBe('timeout');
    b.release();
    const got = await behindOthers;
    expect(got).toMatchObject({ ownWaitMs: 0 });
    a.release();
    (got as Slot).release();
    expect(slots.active).toBe(0);
    expect(slots.waiting).toBe(0);
  });

  it('lets an abort take a request out of the queue', async () => {
    const slots = createFairSlots({ overall: 1, perDomain: 1, perAddress: 1, reserve: 0 });
    const held = await take(slots, 1);
    const controller = new AbortController();
    const waiting = slots.acquire(keys(2), { ownWaitLimitMs: 60_000, signal: controller.signal });
    controller.abort();
    expect(await waiting).toBe('aborted');
    expect(slots.waiting).toBe(0);
    held.release();
  });
});
