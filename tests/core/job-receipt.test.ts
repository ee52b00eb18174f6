/**
 * Jobs and receipts as docs/verification.md "Jobs and receipts" specifies them: the bytes below are written
 * from that text with node:crypto, not with core/log/job.ts, and must equal what the build logs; the
 * look-up files the receipt page reads, and the page's check (core/log/job-lookup.ts) against them.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { planLogAppend, type LogEntry } from '../../core/log/index.ts';
import { formatReceiptCode, parseReceiptCode } from '../../core/log/job.ts';
import { buildJobLookup, checkReceipt, findJobRecord } from '../../core/log/job-lookup.ts';
import { sha256 } from '../../core/log/sha256.ts';
import { demoJobKey, jobForLog, jobSecretOf } from '../../scripts/lib/job-key.ts';

const key = demoJobKey('reviews.example.com/log');
const jobs = [
  { id: 'J-1001', completed: '2026-03-04', service: 'water-heater', area: 'Knoxville', customer: 'Pat C.', total: 1983 },
  { id: 'J-1002', completed: '2026-03-08', service: 'drain-cleaning' },
  { id: 'J-1003', completed: '2026-01-01', service: 'ac-repair', area: 'Alcoa' },
];
const entries: LogEntry[] = planLogAppend({ state: new Map(), published: [], reasons: new Map(), jobs: jobs.map((j) => jobForLog(key, j)), size: 0, now: '2026-04-01T00:00:00Z' });
const entryOf = (locator: string) => entries.find((e) => e.action === 'job' && e.locator === locator) as Extract<LogEntry, { action: 'job' }>;

/** The documented encoding, by hand. */
const byHand = {
  secret: (id: string) => createHmac('sha256', key.bytes).update(Buffer.from(`reviews-job-secret/v1\n${id}`, 'utf8')).digest().subarray(0, 10),
  locator: (secret: Buffer) => createHash('sha256').update(`reviews-job-locator/v1\n${secret.toString('hex')}\n`).digest().subarray(0, 16).toString('hex'),
  commitment: (secret: Buffer, completed: string, service: string, area = '') =>
    createHash('sha256').update(`reviews-job/v1\n${secret.toString('hex')}\n${completed}\n${service}\n${area}\n`).digest('base64'),
  /** Crockford base32 of the 80 bits, most significant first, then the Luhn mod 32 check character, in groups of 4. */
  code(secret: Buffer) {
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const bits = [...secret].map((b) => b.toString(2).padStart(8, '0')).join('');
    const digits = Array.from({ length: 16 }, (_, i) => parseInt(bits.slice(i * 5, i * 5 + 5), 2));
    let sum = 0;
    digits.toReversed().forEach((d, i) => {
      const p = i % 2 === 0 ? d * 2 : d;
      sum += Math.floor(p / 32) + (p % 32);
    });
    const chars = [...digits, (32 - (sum % 32)) % 32].map((d) => alphabet[d]).join('');
    return chars.match(/.{1,4}/g)!.join('-');
  },
};

describe('a job entry', () => {
  it.each(jobs)('commits to the documented bytes ($id)', (job) => {
    const secret = byHand.secret(job.id);
    expect(Buffer.from(jobSecretOf(key, job.id))).toEqual(secret);
    const entry = entryOf(byHand.locator(secret));
    expect(entry).toBeDefined();
    expect(entry.commitment).toBe(byHand.commitment(secret, job.completed, job.service, job.area));
    expect(formatReceiptCode(jobSecretOf(key, job.id))).toBe(byHand.code(secret));
  });

  it("gives docs/verification.md's worked example", () => {
    const secret = byHand.secret('J-1001');
    expect(key.bytes.toString('base64')).toBe('e8SMEVWwoH8IzuW4Xkt1l3JMYH2vgkL5HwYsUz+tbUU=');
    expect(secret.toString('hex')).toBe('d0cc41bcbf133158f8f4');
    expect(byHand.code(secret)).toBe('T364-3F5Z-2CRN-HY7M-J');
    expect(byHand.locator(secret)).toBe('b8f6c197571b94162bc408971f4a552e');
    expect(jobForLog(key, { id: 'J-1001', completed: '2023-03-03', service: 'drain-cleaning', area: 'Oak Ridge' })).toMatchObject({
      week: '2023-W09', locator: 'b8f6c197571b94162bc408971f4a552e', commitment: 'CV+2ub9gn054xBYJa2cFAr4qQyZt1rorpfveGDyBcvA=',
    });
  });

  it('holds only the week, the service and the area beside the commitment', () => {
    const entry = entryOf(byHand.locator(byHand.secret('J-1001')));
    expect(Object.keys(entry).sort()).toEqual(['action', 'area', 'commitment', 'locator', 'service', 'time', 'week']);
    expect(entry).toMatchObject({ week: '2026-W10', service: 'water-heater', area: 'Knoxville' });
    expect(JSON.stringify(entries)).not.toMatch(/J-10|Pat C\.|1983/);
  });
});

describe('buildJobLookup', () => {
  it("files each locator's latest job entry in the shard of its first two hex characters", () => {
    const first = entryOf(byHand.locator(byHand.secret('J-1002')));
    // The job edited after it was logged: logged again, and the look-up gives the later entry.
    const again = { ...first, time: '2026-04-02T00:00:00Z', commitment: byHand.commitment(byHand.secret('J-1002'), '2026-03-07', 'drain-cleaning') };
    const log: LogEntry[] = [...entries, { action: 'publish', review_id: 'r-1', time: '2026-04-02T00:00:00Z', date: '2026-04-01', rating: 5, digest: 'A'.repeat(43) + '=' }, again];
    const files = buildJobLookup(log);
    const locators = entries.map((e) => (e as { locator: string }).locator);
    expect([...files.keys()].sort()).toEqual([...new Set(locators.map((l) => l.slice(0, 2)))].sort());
    for (const [shard, text] of files) for (const locator of Object.keys(JSON.parse(text))) expect(locator.slice(0, 2)).toBe(shard);
    expect(findJobRecord(files.get(first.locator.slice(0, 2))!, first.locator)).toEqual({
      locator: first.locator, entry: 4, time: '2026-04-02T00:00:00Z', week: '2026-W10', service: 'drain-cleaning', area: null, commitment: again.commitment,
    });
    const knoxville = entryOf(byHand.locator(byHand.secret('J-1001')));
    expect(findJobRecord(files.get(knoxville.locator.slice(0, 2))!, knoxville.locator)).toMatchObject({ entry: entries.indexOf(knoxville), area: 'Knoxville' });
    expect(buildJobLookup(log)).toEqual(files);
  });

  it('writes nothing for a log without jobs', () => {
    expect(buildJobLookup([]).size).toBe(0);
  });
});

describe('checkReceipt', () => {
  const files = buildJobLookup(entries);
  const fetchShard = async (shard: string) => (files.has(shard) ? { status: 200, text: files.get(shard)! } : { status: 404, text: '' });
  const code = formatReceiptCode(jobSecretOf(key, 'J-1001'));

  it('finds a printed receipt, with the day its commitment binds', async () => {
    const result = await checkReceipt(code.toLowerCase().replaceAll('-', ' '), fetchShard, sha256);
    expect(result).toMatchObject({ verdict: 'found', completed: '2026-03-04', record: { week: '2026-W10', service: 'water-heater', area: 'Knoxville' } });
  });

  it('says a code with one character changed is mistyped, before any look-up', async () => {
    const typo = `${code.slice(0, 5)}${code[5] === 'A' ? 'B' : 'A'}${code.slice(6)}`;
    const asked: string[] = [];
    const result = await checkReceipt(typo, async (s) => (asked.push(s), fetchShard(s)), sha256);
    expect(result).toMatchObject({ verdict: 'not-found', reason: 'mistyped' });
    expect(asked).toEqual([]);
  });

  it('does not find a well-formed code of no logged job', async () => {
    const other = formatReceiptCode(jobSecretOf(key, 'J-9999'));
    expect(parseReceiptCode(other).ok).toBe(true);
    expect(await checkReceipt(other, fetchShard, sha256)).toMatchObject({ verdict: 'not-found', reason: 'absent' });
  });

  it('does not find a job whose entry commits to other fields', async () => {
    const locator = byHand.locator(byHand.secret('J-1001'));
    const forged = new Map(files);
    const shard = JSON.parse(files.get(locator.slice(0, 2))!);
    shard[locator].service = 'ac-repair';
    forged.set(locator.slice(0, 2), JSON.stringify(shard));
    expect(await checkReceipt(code, async (s) => ({ status: 200, text: forged.get(s) ?? '{}' }), sha256)).toMatchObject({ verdict: 'not-found', reason: 'mismatch' });
  });
});
