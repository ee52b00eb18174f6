/** llms.txt (llmstxt.org): where an agent finds the data, the API description and the MCP endpoint. */
import type { APIRoute } from 'astro';
import { PATHS } from '../../core/urls.ts';
import { getBuildData } from '../lib/build-data.ts';
import { listMcpToolNames } from '../../core/mcp-tool-names.ts';
import { formatCount } from '../../core/text/text-rules.ts';

export const GET: APIRoute = async () => {
  const { dataset, urls } = await getBuildData();
  const { business, aggregate_rating: aggregate } = dataset;
  const body = `# ${business.name} reviews

> Every verified customer review of ${business.name} (${business.address.locality}, ${business.address.region}), published whatever its rating: ${formatCount(aggregate.review_count)} reviews, average ${aggregate.rating_value} of 5. Open data: no key, CORS open, ETags everywhere.

Prefer the JSON below to scraping the pages: it holds the same reviews, with technician, service and aspect (topic) sentiment for each.

## Data

- [reviews.json](${urls.reviewsJson}): the business, its aggregate rating and every verified review, newest first
- [insights.json](${urls.insightsJson}): what customers say by aspect (punctuality, price…), technician, service and area; FAQ and summary, each figure with the search filter that lists its reviews
- [Atom feed](${urls.feedXml}) and [JSON Feed](${urls.feedJson}): the 50 newest reviews, pushed by the WebSub hub at ${urls.hub}

## API

- [OpenAPI 3.1 document](${urls.openapi}): every endpoint and shape
- [API reference](${urls.absolute(PATHS.apiReference)}): the same, for people, with curl examples
- Search: \`GET ${urls.search}?query=…&min_rating=…&mentions_technician=…&mentions_service=…&aspect=…&aspect_sentiment=…&since=YYYY-MM-DD&until=YYYY-MM-DD\`
- Since a date: \`GET ${urls.since('YYYY-MM-DD')}\`
- Changes since your last call (added, edited, removed), to keep a copy: \`GET ${urls.changes()}?since=<next_token>\`
- MCP server (Streamable HTTP, no key): ${urls.mcp}; tools ${listMcpToolNames()}

## Pages

- [Home](${urls.home}): rating, what customers say, technicians, services, FAQ
- [All reviews by month](${urls.absolute(PATHS.reviewsIndex)})
- [Technicians](${urls.absolute(PATHS.technicians)}) and [services](${urls.absolute(PATHS.services)})
- [About these reviews](${urls.absolute(PATHS.about)}): what verified means, where reviews come from
`;
  return new Response(body, { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
