/**
 * `.github/workflows/sync.yml`, checked without GitHub: hourly and on demand, on the default branch, one
 * at a time; it runs the sync with --commit with the settings docs/import.md names, pushes only when the
 * sync committed, and starts the Publish workflow (a push with the workflow's own token starts none).
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

type Step = { name?: string; uses?: string; run?: string; env?: Record<string, string>; with?: Record<string, unknown> };
type Workflow = {
  on: { schedule: { cron: string }[]; workflow_dispatch: null };
  permissions: Record<string, string>;
  concurrency: { group: string; 'cancel-in-progress': boolean };
  jobs: { sync: { if: string; steps: Step[] } };
};

const read = async () => parse(await readFile('.github/workflows/sync.yml', 'utf8')) as Workflow;

describe('.github/workflows/sync.yml', () => {
  it('runs every hour and on demand, on the default branch, one at a time', async () => {
    const workflow = await read();
    expect(workflow.on.schedule).toEqual([{ cron: '17 * * * *' }]);
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    expect(workflow.permissions).toEqual({ contents: 'write', actions: 'write' });
    expect(workflow.concurrency).toEqual({ group: 'sync', 'cancel-in-progress': false });
    expect(workflow.jobs.sync.if).toBe('github.ref_name == github.event.repository.default_branch');
  });

  it('syncs with --commit using the secrets the docs name, then pushes and starts Publish only after a commit', async () => {
    const steps = (await read()).jobs.sync.steps;
    const sync = steps.find((s) => s.run === 'npm run sync -- google --commit')!;
    expect(sync.env).toMatchObject({
      GOOGLE_CLIENT_ID: '${{ secrets.GOOGLE_CLIENT_ID }}',
      GOOGLE_CLIENT_SECRET: '${{ secrets.GOOGLE_CLIENT_SECRET }}',
      GOOGLE_REFRESH_TOKEN: '${{ secrets.GOOGLE_REFRESH_TOKEN }}',
      GOOGLE_LOCATION: '${{ vars.GOOGLE_LOCATION }}',
    });
    const docs = await readFile('docs/import.md', 'utf8');
    for (const name of ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET', 'GOOGLE_REFRESH_TOKEN', 'GOOGLE_LOCATION']) expect(docs).toContain(name);
    const push = steps.at(-1)!;
    expect(steps.indexOf(push)).toBeGreaterThan(steps.indexOf(sync));
    expect(push.run).toContain(`if [ "$(git rev-parse HEAD)" != "$(git rev-parse '@{u}')" ]`);
    expect(push.run).toContain('gh workflow run publish.yml');
    expect(push.env).toEqual({ GH_TOKEN: '${{ github.token }}' });
  });
});
