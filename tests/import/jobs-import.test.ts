/**
 * `npm run import -- jobs …` as an owner runs it (a child process), with an export in each of the three
 * tools' layouts and a CSV mapped by a mapping file: the jobs it writes, the rows it refuses, a dry run,
 * a second run, and that nothing of a customer reaches the content folder.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { copySmallContent, fixture, runImport, snapshot } from './harness.ts';

const jobsFixture = (name: string) => fixture(`jobs/${name}`);
const JOBBER = jobsFixture('jobber-jobs.csv');
const HOUSECALL_PRO = jobsFixture('housecall-pro-jobs.csv');
const SERVICETITAN = jobsFixture('servicetitan-jobs.csv');
const WORK_ORDERS = jobsFixture('work-orders.csv');
const MAPPED = ['--mapping', jobsFixture('work-orders-mapping.json')];

type StoredJob = Record<string, unknown> & { id: string };

async function readJobs(content: string): Promise<Map<string, StoredJob & { file: string }>> {
  const byId = new Map<string, StoredJob & { file: string }>();
  for (const name of (await readdir(path.join(content, 'jobs'))).sort()) {
    for (const job of JSON.parse(await readFile(path.join(content, 'jobs', name), 'utf8')) as StoredJob[]) byId.set(job.id, { ...job, file: name });
  }
  return byId;
}

const skippedLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('skipped'));

describe('npm run import -- jobs', () => {
  it.each([
    {
      layout: 'Jobber',
      file: JOBBER,
      args: [],
      read: 'read as a Jobber export: Job # (id), Completed date (completed), Title (service), Visits assigned to (technician), Service city (area); no other column is read',
      jobs: {
        // A free title names its service; the first technician of the visit's crew; the city is a service area.
        '1041': { completed: '2026-03-02', service: 'ac-repair', technician: 'Michael Reyes', area: 'Chatham', file: '2026-03.json' },
        '1042': { completed: '2026-03-14', service: 'furnace-repair', technician: 'Al Okafor', area: 'Springfield', file: '2026-03.json' },
        // A technician business.json does not know is left out.
        '1044': { completed: '2026-04-02', service: 'water-heater', area: 'Rochester', file: '2026-04.json' },
      },
      skipped: [
        `skipped ${JOBBER}, row 4, job 1043, field Title: "Gutter cleaning" is not a service of business.json (an id, a name or an alias): add it to a service's aliases`,
        `skipped ${JOBBER}, row 6, job 1045, field Completed date: is empty: only completed jobs are imported`,
        `skipped ${JOBBER}, row 7, job 1046, field Completed date: "2026-02-30" is not a calendar date`,
      ],
      summary: 'Summary: 3 added, 0 updated, 0 unchanged, 3 skipped (2 invalid, 1 not completed), 0 removed.',
    },
    {
      layout: 'Housecall Pro',
      file: HOUSECALL_PRO,
      args: [],
      read: 'read as a Housecall Pro export: Invoice # (id), Job completed (completed), Job description (service), Employees (technician), City (area); no other column is read',
      jobs: {
        '20517': { completed: '2026-03-05', service: 'ac-repair', technician: 'Dana Whitfield', area: 'Springfield', file: '2026-03.json' },
        '20519-2': { completed: '2026-03-28', service: 'water-heater', technician: 'Al Okafor', area: 'Rochester', file: '2026-03.json' },
      },
      skipped: [
        `skipped ${HOUSECALL_PRO}, row 3, job 20518, field Job description: "Furnace and A/C check" names more than one service (ac-repair, furnace-repair): a job has one service`,
        `skipped ${HOUSECALL_PRO}, row 5, job 20520, field Job description: is empty: pass --service <id> for jobs without a service`,
      ],
      summary: 'Summary: 2 added, 0 updated, 0 unchanged, 2 skipped (2 invalid), 0 removed.',
    },
    {
      layout: 'ServiceTitan',
      file: SERVICETITAN,
      args: [],
      read: 'read as a ServiceTitan export: Job # (id), Completion Date (completed), Job Type (service), Primary Technician (technician), Location Address (address); no other column is read',
      jobs: {
        '88001': { completed: '2026-04-09', service: 'water-heater', technician: 'Dana Whitfield', area: 'Rochester', file: '2026-04.json' },
        // "12 Chatham Rd, Springfield": the city, not a word of the street; "Mikey" is an alias.
        '88002': { completed: '2026-04-13', service: 'furnace-repair', technician: 'Michael Reyes', area: 'Springfield', file: '2026-04.json' },
        '88004': { completed: '2026-04-20', service: 'ac-repair', area: 'Springfield', file: '2026-04.json' },
      },
      skipped: [
        `skipped ${SERVICETITAN}, row 4, job 88003, field Job Type: "Duct Cleaning" is not a service of business.json (an id, a name or an alias): add it to a service's aliases`,
      ],
      summary: 'Summary: 3 added, 0 updated, 0 unchanged, 1 skipped (1 invalid), 0 removed.',
    },
    {
      layout: 'a CSV with mapped columns',
      file: WORK_ORDERS,
      args: MAPPED,
      read: 'read as a CSV with mapped columns: WO (id), Done on (completed), Kind (service), Crew (technician), Town (area); no other column is read',
      jobs: {
        'W-301': { completed: '2026-03-14', service: 'furnace-repair', technician: 'Dana Whitfield', area: 'Springfield', file: '2026-03.json' },
        // day_first reads 03/04/2026 as 3 April; an empty Kind takes the mapping's default service.
        'W-302': { completed: '2026-04-03', service: 'ac-repair', technician: 'Al Okafor', area: 'Chatham', file: '2026-04.json' },
      },
      skipped: [
        `skipped ${WORK_ORDERS}, row 4, job W-303, field Kind: "Chimney sweep" is not a service of business.json (an id, a name or an alias): add it to a service's aliases`,
      ],
      summary: 'Summary: 2 added, 0 updated, 0 unchanged, 1 skipped (1 invalid), 0 removed.',
    },
  ])('imports $layout, naming every refused row', async ({ file, args, read, jobs, skipped, summary }) => {
    const content = await copySmallContent();
    const run = await runImport(content, ['jobs', file, ...args]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`${file}: ${read}`);
    expect(skippedLines(run.stdout)).toEqual(skipped);
    expect(run.summary).toBe(summary);
    const stored = await readJobs(content);
    expect(Object.fromEntries([...stored].map(([id, { id: _, ...job }]) => [id, job]))).toEqual(jobs);
    const loaded = await loadContent(content);
    expect(loaded.ok && loaded.value.jobs.map((j) => j.id).sort()).toEqual(Object.keys(jobs).sort());
  });

  it('--dry-run lists the jobs it would add and writes nothing', async () => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    const run = await runImport(content, ['jobs', JOBBER, '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('+ 1041  added to jobs/2026-03.json');
    expect(run.stdout).toContain('+ 1044  added to jobs/2026-04.json');
    expect(run.summary).toBe('Summary (dry run, nothing written): 3 added, 0 updated, 0 unchanged, 3 skipped (2 invalid, 1 not completed), 0 removed.');
    expect(await snapshot(content)).toEqual(before);
  });

  it('a second run changes nothing; a changed row updates its job and leaves the owner’s own members', async () => {
    const content = await copySmallContent();
    const all = [JOBBER, HOUSECALL_PRO, SERVICETITAN];
    expect((await runImport(content, ['jobs', ...all])).summary).toBe('Summary: 8 added, 0 updated, 0 unchanged, 6 skipped (5 invalid, 1 not completed), 0 removed.');
    const first = await snapshot(content);
    const again = await runImport(content, ['jobs', ...all]);
    expect(again.summary).toBe('Summary: 0 added, 0 updated, 8 unchanged, 6 skipped (5 invalid, 1 not completed), 0 removed.');
    expect(await snapshot(content)).toEqual(first);

    // The owner notes something on a job by hand; the export then moves job 1042 to Dana, a day later.
    const march = path.join(content, 'jobs', '2026-03.json');
    const jobs = JSON.parse(await readFile(march, 'utf8')) as StoredJob[];
    jobs.find((j) => j.id === '1042')!.gate_code = '4411';
    await writeFile(march, `${JSON.stringify(jobs, null, 2)}\n`);
    const changed = path.join(path.dirname(content), 'jobber-later.csv');
    await writeFile(changed, (await readFile(JOBBER, 'utf8')).replace('Furnace tune-up,Al Okafor,03/10/2026,"Mar 14, 2026"', 'Furnace tune-up,Dana Whitfield,03/10/2026,"Mar 15, 2026"'));
    const update = await runImport(content, ['jobs', changed]);
    expect(update.stdout).toContain('~ 1042  completed, technician changed in jobs/2026-03.json');
    expect(update.summary).toBe('Summary: 0 added, 1 updated, 2 unchanged, 3 skipped (2 invalid, 1 not completed), 0 removed.');
    expect((await readJobs(content)).get('1042')).toEqual({
      id: '1042',
      completed: '2026-03-15',
      service: 'furnace-repair',
      technician: 'Dana Whitfield',
      area: 'Springfield',
      gate_code: '4411',
      file: '2026-03.json',
    });
  });

  it('writes nothing of a customer: no name, address, e-mail, telephone or total of the exports', async () => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    const run = await runImport(content, ['jobs', JOBBER, HOUSECALL_PRO, SERVICETITAN]);
    expect(run.code).toBe(0);
    const mapped = await runImport(content, ['jobs', WORK_ORDERS, ...MAPPED]);
    expect(mapped.code).toBe(0);

    const after = await snapshot(content);
    const written = Object.keys(after).filter((file) => after[file] !== before[file]);
    expect(written.sort()).toEqual(['jobs/2026-03.json', 'jobs/2026-04.json']);
    const text = (await Promise.all(written.map((file) => readFile(path.join(content, file), 'utf8')))).join('\n');
    for (const job of (await readJobs(content)).values()) for (const key of Object.keys(job)) expect(['id', 'completed', 'service', 'technician', 'area', 'file']).toContain(key);

    const PRIVATE = /name|customer|client|e-?mail|phone|street|address|zip|total|amount/i;
    const values: string[] = [];
    for (const [file, delimiter] of [[JOBBER, ','], [HOUSECALL_PRO, ','], [SERVICETITAN, ','], [WORK_ORDERS, ';']] as const) {
      const rows = parse(await readFile(file, 'utf8'), { columns: true, delimiter }) as Record<string, string>[];
      for (const row of rows) for (const [header, value] of Object.entries(row)) if ((PRIVATE.test(header) || ['Client', 'Phone', 'Amount'].includes(header)) && value !== '') values.push(value);
    }
    expect(values.length).toBeGreaterThan(60);
    for (const value of values) expect(text, value).not.toContain(value);
    // Their parts too: a last name, a street number and name, a total without its currency sign.
    for (const word of values.flatMap((v) => v.split(/[\s,$()]+/)).filter((w) => w.length >= 4 && !/^(?:Springfield|Chatham|Rochester|[\d.]+)$/.test(w))) expect(text, word).not.toContain(word);
    expect((await loadContent(content)).ok).toBe(true);
  });

  it('--strict refuses the whole file for one invalid row; flags of the reviews are refused', async () => {
    const content = await copySmallContent();
    const before = await snapshot(content);
    const strict = await runImport(content, ['jobs', SERVICETITAN, '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('Refused (--strict): 1 invalid job; nothing was written.');
    expect(strict.summary).toBe('Summary (refused, nothing written): 3 added, 0 updated, 0 unchanged, 1 skipped (1 invalid), 0 removed.');
    const flags = await runImport(content, ['jobs', SERVICETITAN, '--prune', '--author-style', 'initials']);
    expect(flags.code).toBe(2);
    expect(flags.stderr).toContain('--prune, --author-style: not for jobs');
    const service = await runImport(content, ['jobs', WORK_ORDERS, ...MAPPED, '--service', 'roofing']);
    expect(service.code).toBe(1);
    expect(service.stderr).toContain('--service roofing: not a service id of business.json (ac-repair, furnace-repair, water-heater)');
    expect(await snapshot(content)).toEqual(before);
  });
});
