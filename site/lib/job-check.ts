/**
 * The receipt page's script (/log/job/?code=<code>): finds a customer's job in the public log from the
 * receipt code alone, in the browser (core/log/job-lookup.ts `checkReceipt`), from static files only: the
 * look-up shard `../jobs/<xx>.json` beside the page. Nothing about the customer is sent or shown; this file
 * only says the result in words, on the element that carries `data-verdict` ("found" or "not-found").
 */
import { checkReceipt, type ReceiptCheck } from '../../core/log/job-lookup.ts';
import { sha256 } from '../../core/log/sha256.ts';
import { formatDate } from '../../core/pages/format.ts';

const TIMEOUT_MS = 10_000;

const root = document.querySelector<HTMLElement>('[data-job-check]');
const verdict = root?.querySelector<HTMLElement>('[data-verdict]');
const details = root?.querySelector<HTMLElement>('[data-check-details]');
const input = document.querySelector<HTMLInputElement>('#receipt-code');
const business = root?.dataset.business ?? 'the business';
const services = JSON.parse(root?.dataset.services ?? '{}') as Record<string, string>;

function say(state: 'found' | 'not-found', sentence: string, points: readonly string[] = []): void {
  if (!verdict || !details) return;
  verdict.dataset.verdict = state;
  verdict.textContent = sentence;
  details.replaceChildren(...points.map((p) => Object.assign(document.createElement('li'), { textContent: p })));
}

async function fetchShard(shard: string): Promise<{ status: number; text: string }> {
  const response = await fetch(new URL(`../jobs/${shard}.json`, location.href), { signal: AbortSignal.timeout(TIMEOUT_MS), cache: 'no-cache' });
  return { status: response.status, text: response.ok ? await response.text() : '' };
}

/** `2026-W10` → "week 10 of 2026". */
const formatWeek = (week: string) => `week ${Number(week.slice(6))} of ${week.slice(0, 4)}`;

function describe(result: ReceiptCheck): void {
  if (result.verdict === 'found') {
    const { record, completed } = result;
    const service = services[record.service] ?? record.service;
    return say('found', `This job was logged on ${formatDate(record.time.slice(0, 10))}, entry ${record.entry} of the public log of ${business}: ${service}, completed in ${formatWeek(record.week)}${record.area === null ? '' : `, in ${record.area}`}.`, [
      `Your code matches that entry: it is the receipt of a job completed on ${formatDate(completed)}.`,
      'The log holds only the week, the service and the area of the job, and a fingerprint of this code: nothing about you.',
    ]);
  }
  switch (result.reason) {
    case 'mistyped':
      return say('not-found', `This code is mistyped: ${result.detail}. Check it against your receipt.`);
    case 'absent':
      return say('not-found', `No job with this receipt code is in the public log of ${business}. A job completed in the last few days may not be logged yet; otherwise check the code against your receipt.`);
    case 'mismatch':
      return say('not-found', `The log has an entry where this code points, but this code is not its receipt: that entry is not your job.`);
    case 'unavailable':
      return say('not-found', `The log could not be loaded (the site answered ${result.status}). Try again later.`);
  }
}

const code = new URLSearchParams(location.search).get('code');
if (root && code !== null) {
  if (input) input.value = code;
  checkReceipt(code, fetchShard, sha256).then(describe, (error: Error) => say('not-found', `This browser could not finish the check (${error.message}). Try a current browser.`));
}
