/**
 * Prompts an owner or an agent picks from a menu: each turns one argument into a request that names
 * the tools to call, so the answer rests on the reviews rather than on the model's guesses. Arguments
 * complete from the live business (technician names, service ids).
 */
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpServerDeps } from './deps.ts';

type PromptArgs = ReturnType<typeof createPromptArgs>;

/** Argument schemas hold their completers; built once per router (deps), not once per request. */
const argsByDeps = new WeakMap<McpServerDeps, PromptArgs>();

function createPromptArgs(deps: McpServerDeps) {
  const business = () => deps.getLive().dataset.business;
  const startingWith = (values: string[], prefix: string) =>
    values.filter((v) => v.toLowerCase().startsWith(prefix.toLowerCase())).slice(0, 100);
  return {
    technician: {
      technician: completable(z.string().min(1).describe('Technician name or alias'), (value) =>
        startingWith(business().technicians.map((t) => t.name), value ?? ''),
      ),
    },
    service: {
      service: completable(z.string().min(1).describe('Service id (see get_business)'), (value) =>
        startingWith(business().services.map((s) => s.id), value ?? ''),
      ),
    },
    since: { date: z.string().describe('Date, YYYY-MM-DD') },
  };
}

export function registerPrompts(server: McpServer, deps: McpServerDeps): void {
  let args = argsByDeps.get(deps);
  if (args === undefined) argsByDeps.set(deps, (args = createPromptArgs(deps)));

  server.registerPrompt(
    'technician_feedback',
    {
      title: 'What customers say about a technician',
      description: 'Summarise praise and criticism of one technician, with quotes and their rating trend.',
      argsSchema: args.technician,
    },
    ({ technician }) =>
      userMessage(
        `Summarise what customers say about the technician "${technician}".\n` +
          `1. Call search_reviews with mentions_technician="${technician}" and limit=100, following next_cursor until it is null.\n` +
          '2. Call get_rating_summary and read the by_technician entry for them.\n' +
          'Report the mean rating and review count, the strengths customers mention most, any recurring criticism, ' +
          'and quote two or three short representative reviews with their dates and ids.',
      ),
  );

  server.registerPrompt(
    'service_complaints',
    {
      title: 'Recurring complaints about a service',
      description: 'Find the problems customers report again and again about one service.',
      argsSchema: args.service,
    },
    ({ service }) =>
      userMessage(
        `Find recurring complaints about the service "${service}".\n` +
          `1. Call search_reviews with mentions_service="${service}" and rating=1, then rating=2, then rating=3 (limit=100, follow next_cursor).\n` +
          `2. Call get_insights with section set to the aspects or topics section if it exists, for the sentiment per aspect.\n` +
          'Group the complaints into themes, order the themes by how many reviews raise them, give each a count, ' +
          'a one-line description and one quoted example (date and id), and say whether the owner responded.',
      ),
  );

  server.registerPrompt(
    'reviews_since',
    {
      title: 'What is new since a date',
      description: 'Catch up on the reviews posted since a date: ratings, themes and reviews that need a reply.',
      argsSchema: args.since,
    },
    ({ date }) =>
      userMessage(
        `Catch me up on the reviews posted since ${date}.\n` +
          `1. Call get_reviews_since with date="${date}", following next_cursor until it is null.\n` +
          `2. Call get_rating_summary with since="${date}".\n` +
          'Say how many reviews arrived and their mean rating against the overall mean (get_business), the main ' +
          'themes, and list every review of 3 stars or fewer that has no owner response yet (id, date, rating, one line).',
      ),
  );
}

function userMessage(text: string) {
  return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
}
