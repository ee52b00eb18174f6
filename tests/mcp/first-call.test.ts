/**
 * An agent's first call works (issue 44 item 5): every tool that takes a service or a technician
 * accepts its id, name or alias as get_insights does, and get_changes given a date points to
 * get_reviews_since. On the demo business, through the SDK client.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContent } from '../../core/content/load-content.ts';
import { formatContentProblems } from '../../core/content/problems.ts';
import { buildPublication } from '../../core/dataset/build-dataset.ts';
import { createLiveData, type LiveData } from '../../core/dataset/live-data.ts';
import { createServiceUrls } from '../../core/urls.ts';
import { DEMO_CONTENT } from '../helpers/site-build.ts';
import { connectClient, startMcpApp, type RunningApp } from './mcp-fixture.ts';

const PUBLIC_URL = 'https://reviews.example.com';
let app: RunningApp;
let client: Client;
let live: LiveData;

beforeAll(async () => {
  const content = await loadContent(DEMO_CONTENT);
  if (!content.ok) throw new Error(formatContentProblems(content.problems));
  const { dataset, insights } = buildPublication(content.value, createServiceUrls(PUBLIC_URL));
  live = createLiveData({ dataset, insights, urls: createServiceUrls(PUBLIC_URL) });
  app = await startMcpApp({ live, publicUrl: PUBLIC_URL });
  ({ client } = await connectClient(app.mcpUrl));
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

async function call(name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, text: (result.content as { text: string }[])[0]!.text, value: result.structuredContent as Record<string, unknown> };
}

describe('services and technicians by name or alias', () => {
  it.each(['water-heater', 'Water Heater Repair & Installation', 'water heaters', 'Tankless', '  HOT WATER TANK '])(
    'ranks technicians for the service named %j in one call',
    async (name) => {
      const byName = await call('rank_technicians', { mentions_service: name });
      const byId = await call('rank_technicians', { mentions_service: 'water-heater' });
      expect(byName.isError, byName.text).toBe(false);
      expect(byName.value).toEqual(byId.value);
    },
  );

  it('searches a service by name and a technician by first name, as by id and full name', async () => {
    const technician = live.dataset.reviews.find((r) => r.services.includes('water-heater') && r.technicians.length > 0)!.technicians[0]!;
    const firstName = technician.split(' ')[0]!.toLowerCase();
    const byName = await call('search_reviews', { mentions_service: 'water heaters', mentions_technician: firstName, limit: 5 });
    const byId = await call('search_reviews', { mentions_service: 'water-heater', mentions_technician: technician, limit: 5 });
    expect(byName.isError, byName.text).toBe(false);
    expect(byName.value.total).toBeGreaterThan(0);
    expect(byName.value).toEqual(byId.value);
  });

  it('gives get_insights the same names', async () => {
    const service = await call('get_insights', { service: 'water heaters' });
    expect((service.value.insights as { services: { id: string }[] }).services[0]!.id).toBe('water-heater');
    const technician = await call('get_insights', { technician: 'Priya' });
    expect((technician.value.insights as { technicians: { name: string }[] }).technicians[0]!.name).toBe('Priya Natarajan');
  });

  it('still names the known services when a name matches none', async () => {
    const bad = await call('rank_technicians', { mentions_service: 'roofing' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/mentions_service: no service has the id "roofing"; known service ids: .*water-heater \(Water Heater Repair & Installation\)/);
  });
});

describe('get_changes given a date', () => {
  it.each(['since', 'date'])('says to use get_reviews_since when %s is a date', async (name) => {
    const answer = await call('get_changes', { [name]: '2025-06-01' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toContain(`- ${name}: is a date; get_changes takes \`since\`: the next_token of its last answer`);
    expect(answer.text).toContain('call get_reviews_since with { "date": "2025-06-01" }');
  });

  it('answers a token that is not a date as before, without the hint', async () => {
    const answer = await call('get_changes', { since: 'not-a-token' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/^- since: /m);
    expect(answer.text).not.toContain('get_reviews_since');
  });
});

describe('get_insights estimates', () => {
  it('gives each aspect its corrected counts as [value, low, high] beside the raw ones', async () => {
    const answer = await call('get_insights', { section: 'aspects' });
    const aspects = answer.value.insights as { aspects: { id: string; mentions: number; estimate: Record<string, number[]>; recall: number }[] };
    for (const shown of aspects.aspects) {
      const full = live.insights.aspects.find((a) => a.id === shown.id)!;
      expect(shown.mentions).toBe(full.mentions);
      expect(shown.estimate.negative).toEqual([full.estimate!.negative.value, full.estimate!.negative.low, full.estimate!.negative.high]);
      expect(shown.recall).toBe(full.accuracy!.detection.recall);
    }
    expect(answer.value.more).toContain('[value, low, high]');
  });
});
