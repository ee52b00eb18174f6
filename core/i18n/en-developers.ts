/**
 * English's words for the developer pages: /developers/, the API reference (/developers/api/) and the
 * MCP set-up both show; a part of core/i18n/en.ts (which says how the strings are used), kept apart so
 * that neither file grows past a reader's patience. Code, paths, parameter names and snippets are not
 * words: they stay as they are in every language. The OpenAPI document's own descriptions, which the
 * API reference shows, are the API's, in English whatever the site's language (core/openapi/).
 */
export const enDevelopers = {
  developers: {
    crumb: 'Developers',
    title: '{name} reviews for developers and AI agents',
    description: 'Open data: every verified review of {name} as JSON, Atom and JSON Feed, a search API, an MCP server for agents and WebSub push.',
    apiTitle: 'API reference: {name} reviews',
    apiDescription: 'Every endpoint of the reviews API, with parameters, responses, schemas and copy-paste curl examples: search, since, conditional requests, WebSub and MCP.',
    heading: 'For developers and AI agents',
    intro: 'Everything on this site is open data: no key, no sign-up, CORS open to every origin, and conditional requests (ETag) everywhere. The {reference} describes each endpoint with examples; the same description is machine-readable at {openapi}.',
    /** The link to the API reference inside `intro`. */
    reference: 'API reference',
    datasets: 'Datasets',
    reviewsDataset: '{link}: every verified review, newest first, with the business and its aggregate rating.',
    insightsDataset: '{link}: what customers say by topic, technician, service and area, with the FAQ and the summary shown on the home page.',
    feeds: 'Feeds',
    newestFeeds: '{atom} (Atom) and {json} (JSON Feed 1.1): the 50 newest reviews, each titled with its rating.',
    sliceFeeds:
      "A feed per slice, in both formats: every technician (<code>/feeds/technicians/&lbrace;slug&rbrace;.xml</code>), every service (<code>/feeds/services/&lbrace;id&rbrace;.xml</code>), each aspect's complaints (<code>/feeds/complaints/&lbrace;aspect&rbrace;.xml</code>) and all complaints, rated 1 or 2 or with a negative opinion ({complaints}); <code>.json</code> for the JSON Feed. {index} lists them all, and each page announces its own.",
    searchAndSince: 'Search and since',
    search: '<code>/api/reviews/search</code>: filter by words, stars, technician, service, topic and date. Example: {example}.',
    since: '<code>/api/reviews/since/YYYY-MM-DD</code>: every review from a date on, for catching up.',
    changes:
      '{link}: every review added, edited, hidden or removed since the <code>next_token</code> of your last call (<code>?since=…</code>), oldest first, to keep a copy equal to <code>/reviews.json</code>; the MCP tool <code>get_changes</code> answers the same.',
    websubHeading: 'WebSub: get new reviews pushed',
    websub:
      "The hub at {hub} pushes every change of <code>/feed.xml</code>, <code>/api/feed.json</code>, <code>/reviews.json</code> and every feed of <code>/feeds.json</code> to its subscribers (W3C WebSub): a new review about one technician reaches only that technician's feeds, and the complaint feeds if it is a complaint. Subscribe with an HTTPS callback that echoes <code>hub.challenge</code>:",
    widgetHeading: 'The reviews on your own site',
    widget:
      'Two lines show the rating, the histogram and the newest reviews, with a link back here (attributes: <code>count</code> 0 to 10, <code>min-rating</code>, <code>technician</code>, <code>service</code>, <code>sort="best"</code>, <code>theme</code> light, dark or auto):',
    frame: 'Where no script may run, a frame takes the same options in its address. Its height for each <code>count</code> shows everything at any width from 320 px: {heights}.',
    frameSizer: "Or let the frame take its content's height: add this one line to the page, which listens for the height the frame sends.",
    llmsHeading: 'For language models',
    llms: '{link} tells agents where the data, the OpenAPI document and the MCP endpoint are.',
  },
  /** site/components/mcp-setup.astro, on both pages. */
  mcpSetup: {
    heading: 'MCP server for AI agents',
    intro: 'The service is a Model Context Protocol server at {url} (Streamable HTTP, protocol 2025-06-18). It needs no key. Its tools are read-only: {tools}.',
    claudeDesktop: '<strong>Claude Desktop:</strong> Settings → Connectors → Add custom connector, with the URL above.',
    inspector: '<strong>MCP Inspector:</strong> <code>npx @modelcontextprotocol/inspector</code>, choose Streamable HTTP and enter the URL.',
    otherClient:
      '<strong>Any other client:</strong> POST JSON-RPC 2.0 to the URL with <code>Accept: application/json, text/event-stream</code>; send <code>initialize</code> first, then the <code>Mcp-Session-Id</code> it returns on every later request.',
  },
  apiReference: {
    /** "Reviews service 1.0.0, at https://…": the API's name and version, then where it is. */
    intro: '{api}, at {base}. This page is the {document} written out for people.',
    document: 'OpenAPI document',
    onThisPage: 'On this page',
    examples: 'Examples',
    search: 'Search',
    since: 'Everything since a date',
    conditional: 'Conditional requests',
    websub: 'WebSub',
    alsoHead: ' · HEAD too, with the same headers and no body',
    parametersOf: 'Parameters of {method} {path}',
    requestBody: 'Request body:',
    responses: 'Responses',
    schemas: 'Schemas',
    fieldsOf: 'Fields of {name}',
    typeOf: 'Type:',
    /** The columns of a table of parameters or fields, and the marks beside a name. */
    parameter: 'Parameter',
    field: 'Field',
    in: 'In',
    type: 'Type',
    description: 'Description',
    required: ' (required)',
    optional: ' (optional)',
  },
};
