/** /widget.js: the `<reviews-widget>` script for other sites, in the site's language (site/lib/widget-script.ts). */
import { getPageData } from '../lib/page-data.ts';
import { renderWidgetScript } from '../lib/widget-script.ts';

export async function GET(): Promise<Response> {
  const { t } = await getPageData();
  return new Response(renderWidgetScript(t), { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } });
}
