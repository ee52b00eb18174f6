/**
 * The server entrypoint of a build (`_server/entry.mjs`): what the sidecar imports from a build folder
 * to render its on-demand pages (sidecar/builds/load-pages.ts). One App per build, through Astro's
 * public adapter API: `app.match` and `app.render(request, { locals })`, a web Request in, a web
 * Response out. No streaming: the sidecar sends the whole page with an ETag (send-representation.ts).
 */
import { createApp } from 'astro/app/entrypoint';

const app = createApp({ streaming: false });

/** Astro fetches a prerendered error page over the network by default; the sidecar answers its own errors. */
const noErrorPage = async () => new Response(null, { status: 404 });

/** The page the request names rendered with `locals`, or undefined when no on-demand page matches. */
export async function renderPage(request: Request, locals: App.Locals): Promise<Response | undefined> {
  const routeData = app.match(request);
  if (routeData === undefined) return undefined;
  return app.render(request, { locals, routeData, prerenderedErrorPageFetch: noErrorPage });
}
