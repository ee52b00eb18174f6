/*
 * <reviews-widget>: the business's rating, its histogram and a few reviews, for the owner's own site.
 *
 *   <script src="https://reviews.example.com/widget.js" async></script>
 *   <reviews-widget count="3" min-rating="4" technician="Sarah Kowalski" service="ac-repair" sort="best" theme="auto" media="true"></reviews-widget>
 *
 * A custom element with a Shadow DOM and no framework. It reads the public search API of the service
 * it was loaded from (or the `origin` attribute, the service's PUBLIC_URL) over CORS: one search for the reviews shown, and
 * one `limit=1` search per star rating whose `total` gives the histogram. The browser's HTTP cache
 * keeps the answers and revalidates them with their ETags (If-None-Match → 304), so a page view
 * after the first costs a few empty 304s at most. Attributes:
 *   count       reviews shown, 0 to 10 (default 3)
 *   min-rating  only reviews with at least this many stars (1 to 5)
 *   technician  a technician's name: rating and reviews of their jobs only
 *   service     a service id: rating and reviews of that service only
 *   sort        newest (default) or best
 *   theme       light, dark or auto (default: follows the visitor's system)
 *   media       true: a thumbnail of each review's first photo, linking to it at full size
 *   log         false: no link to the service's public review log (shown by default, not in a frame)
 *   frame       set by /embed/: every part one line or a fixed number of lines, so the frame's height
 *               for a `count` is known in advance (site/lib/embed-frame.ts)
 *
 * Served as /widget.js by site/pages/widget.js.ts, which writes the site's one rule for drawing an average
 * as stars (roundStars, core/insights/verdicts.ts), a rating's star glyphs (formatStars, core/pages/format.ts),
 * the names of review sources, the site's language and the tag of an undetermined one in place of the markers below. Names and titles are
 * isolated (`<bdi>`): a right-to-left name, or one with a direction override, cannot reorder its line.
 * The widget is in the site's language (`lang` on its box, whatever the host page's); a review in another
 * carries its own, and a translation its source gave sits behind a disclosure that says who made it, as
 * on the pages (core/pages/review-card.ts).
 */
(() => {
  if (customElements.get('reviews-widget')) return;
  const script = document.currentScript;
  // The folder the script was loaded from is the service's PUBLIC_URL, which may carry a path.
  const scriptBase = script && script.src ? new URL('.', script.src).href : location.origin;
  const SEARCH = '/api/reviews/search';
  /* roundStars */
  /* formatStars */
  /* nameSource */
  /* siteLanguage */
  /* undetermined */
  /* logPath */
  /* aboutReviewsPath */
  /* strings */
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

  const CSS = `
:host { display: block; max-width: 32rem; font: 15px/1.45 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
  --bg: #fff; --text: #1b1f24; --muted: #4b535d; --link: #0a58b0; --border: #c9ced4; --star: #9a5800; --track: #e9ecef; }
:host([theme='dark']) { --bg: #14171b; --text: #e8eaed; --muted: #b0b7c0; --link: #8cc4ff; --border: #48505a; --star: #f4b740; --track: #2a3038; }
@media (prefers-color-scheme: dark) {
  :host(:not([theme='light']):not([theme='dark'])) { --bg: #14171b; --text: #e8eaed; --muted: #b0b7c0; --link: #8cc4ff; --border: #48505a; --star: #f4b740; --track: #2a3038; }
}
:host([hidden]) { display: none; }
.box { background: var(--bg); color: var(--text); border: 1px solid var(--border); border-radius: 10px; padding: 1rem; }
h2 { font-size: 1.05rem; margin: 0 0 0.25rem; }
.score { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.25rem 0.6rem; margin: 0 0 0.5rem; }
.score b { font-size: 1.9rem; line-height: 1; }
.stars { color: var(--star); letter-spacing: 0.06em; white-space: nowrap; }
.muted { color: var(--muted); }
ul { list-style: none; margin: 0; padding: 0; }
.hist { display: grid; grid-template-columns: max-content minmax(0, 1fr) max-content; column-gap: 0.5rem; }
.hist li { display: grid; grid-column: 1 / -1; grid-template-columns: max-content minmax(0, 1fr) 2.8rem; grid-template-columns: subgrid; align-items: center; gap: 0.5rem; font-size: 0.88rem; }
.bar { height: 0.55rem; background: var(--track); border-radius: 3px; overflow: hidden; }
.bar span { display: block; height: 100%; background: var(--star); }
.hist .pct { text-align: right; font-variant-numeric: tabular-nums; }
.reviews li { border-top: 1px solid var(--border); padding: 0.6rem 0 0.2rem; margin-top: 0.6rem; }
.reviews p { margin: 0.2rem 0; }
.title { font-weight: 600; }
.meta { font-size: 0.85rem; color: var(--muted); }
.mean { position: relative; display: inline-block; }
.mean span { position: absolute; top: 0; left: 0; overflow: hidden; }
:host([frame]) h2, :host([frame]) .head, :host([frame]) .meta, :host([frame]) .more { white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
:host([frame]) .text { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 3; line-clamp: 3; overflow: hidden; }
:host([frame]) .score { flex-wrap: nowrap; white-space: nowrap; }
a { color: var(--link); }
a:focus-visible { outline: 3px solid var(--link); outline-offset: 2px; border-radius: 2px; }
.more { margin: 0.75rem 0 0; font-weight: 600; }
.log { margin: 0.4rem 0 0; }
.thumb { display: inline-block; line-height: 0; margin: 0.3rem 0; }
.translation summary { cursor: pointer; font-size: 0.85rem; color: var(--muted); }
.vh { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; border: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.thumb img { height: 4.5rem; width: auto; max-width: 100%; border-radius: 6px; border: 1px solid var(--border); }
`;

  const clampInt = (value, min, max, fallback) => {
    const n = Number.parseInt(value ?? '', 10);
    return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
  };
  /** An average as five stars filled to roundStars(mean): full stars laid over empty ones, cut to that width. */
  const meanStars = (mean) => {
    const fill = el('span', { 'aria-hidden': 'true' }, formatStars(5));
    fill.style.width = `${roundStars(mean) * 20}%`;
    return el('span', { class: 'stars mean', role: 'img', 'aria-label': /*t:L.fill(L.meanLabel, { rating: L.decimal(mean, 1) })*/`${mean.toFixed(1)} out of 5 stars`/*/t*/ }, formatStars(0), fill);
  };
  /** A review's text, or its translation, cut to what a widget shows. */
  const clip = (text) => (text.length > 280 ? `${text.slice(0, 277).trimEnd()}…` : text);
  /** `lang` for a text in `language` when it is known and not the site's (the box says the site's). */
  const inLanguage = (language) => (language && language !== UNDETERMINED && language !== siteLanguage ? { lang: language } : {});
  /** Who translated a review, in the pages' words ("Translated by Google"; core/pages/review-card.ts). */
  const describeTranslator = (by) => (by === 'owner' ? /*t:L.translatedByOwner*/'Translated by the owner'/*/t*/ : /*t:L.fill(L.translatedBy, { source: nameSource(by) })*/`Translated by ${nameSource(by)}`/*/t*/);
  const formatDate = (iso) => /*t:L.fill(L.date, { month: L.months[Number(iso.slice(5, 7)) - 1], day: Number(iso.slice(8, 10)), year: iso.slice(0, 4) })*/`${MONTHS[Number(iso.slice(5, 7)) - 1]} ${Number(iso.slice(8, 10))}, ${iso.slice(0, 4)}`/*/t*/;
  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
    node.append(...children.filter((child) => child !== null));
    return node;
  };
  // A constructed stylesheet rather than a <style> element: a host page's strict CSP allows it.
  let sheet = null;
  const adoptStyles = (root) => {
    if ('adoptedStyleSheets' in root && typeof CSSStyleSheet.prototype.replaceSync === 'function') {
      if (!sheet) (sheet = new CSSStyleSheet()).replaceSync(CSS);
      root.adoptedStyleSheets = [sheet];
    } else root.append(el('style', {}, CSS));
  };

  class ReviewsWidget extends HTMLElement {
    static get observedAttributes() {
      return ['count', 'min-rating', 'technician', 'service', 'sort', 'origin', 'media', 'log'];
    }

    constructor() {
      super();
      const root = this.attachShadow({ mode: 'open' });
      adoptStyles(root);
      this.show(el('section', { class: 'box', 'aria-busy': 'true' }, el('p', { class: 'muted' }, /*t:L.loading*/'Loading reviews…'/*/t*/)));
      this.generation = 0;
    }

    connectedCallback() {
      this.load();
    }

    attributeChangedCallback() {
      if (this.isConnected) this.load();
    }

    async load() {
      const generation = ++this.generation;
      const base = (this.getAttribute('origin') || scriptBase).replace(/\/+$/, '');
      const filters = new URLSearchParams();
      const technician = this.getAttribute('technician');
      const service = this.getAttribute('service');
      if (technician) filters.set('mentions_technician', technician);
      if (service) filters.set('mentions_service', service);
      const count = clampInt(this.getAttribute('count'), 0, 10, 3);
      const minRating = clampInt(this.getAttribute('min-rating'), 1, 5, 1);
      const shown = new URLSearchParams(filters);
      shown.set('limit', String(Math.max(count, 1)));
      if (minRating > 1) shown.set('min_rating', String(minRating));
      if (this.getAttribute('sort') === 'best') shown.set('sort', 'highest');
      const search = (params) =>
        fetch(`${base}${SEARCH}?${params}`, { mode: 'cors', credentials: 'omit' }).then((response) => {
          if (!response.ok) throw new Error(`${response.status}`);
          return response.json();
        });
      try {
        const byRating = [1, 2, 3, 4, 5].map((rating) => {
          const params = new URLSearchParams(filters);
          params.set('rating', String(rating));
          params.set('limit', '1');
          return search(params).then((answer) => answer.total);
        });
        const [reviews, ...totals] = await Promise.all([search(shown), ...byRating]);
        if (generation === this.generation) this.render(base, filters, count, reviews.reviews, totals);
      } catch (error) {
        if (generation === this.generation) this.renderError(base);
      }
    }

    render(base, filters, count, reviews, totals) {
      const total = totals.reduce((a, b) => a + b, 0);
      const mean = total === 0 ? 0 : totals.reduce((sum, n, i) => sum + n * (i + 1), 0) / total;
      const who = this.getAttribute('technician') || '';
      const link = total === 0 ? `${base}/` : `${base}/search/${String(filters) === '' ? '' : `?${filters}`}`;
      const heading = el('h2', { id: 'rw-heading' }, ...(who ? /*t:L.around(L.headingOf, el('bdi', {}, who))*/['Customer reviews of ', el('bdi', {}, who)]/*/t*/ : [/*t:L.heading*/'Customer reviews'/*/t*/]));
      const score =
        total === 0
          ? el('p', { class: 'muted' }, /*t:L.noReviews*/'No reviews yet.'/*/t*/)
          : el(
              'p',
              { class: 'score' },
              el('b', {}, /*t:L.decimal(mean, 1)*/mean.toFixed(1)/*/t*/),
              meanStars(mean),
              el('span', { class: 'muted' }, /*t:L.counted(L.verifiedReviews, total)*/`${total.toLocaleString('en-US')} verified review${total === 1 ? '' : 's'}`/*/t*/),
            );
      const hist =
        total === 0
          ? null
          : el(
              'ul',
              { class: 'hist', 'aria-label': /*t:L.histogram*/'Share of each star rating'/*/t*/ },
              ...[5, 4, 3, 2, 1].map((n) => {
                const pct = Math.round((100 * totals[n - 1]) / total);
                const fill = el('span', {});
                fill.style.width = `${pct}%`;
                return el('li', {}, el('span', {}, /*t:L.counted(L.stars, n)*/`${n} star${n === 1 ? '' : 's'}`/*/t*/), el('span', { class: 'bar', 'aria-hidden': 'true' }, fill), el('span', { class: 'pct' }, /*t:L.fill(L.percent, { value: L.count(pct) })*/`${pct}%`/*/t*/));
              }),
            );
      const withMedia = this.getAttribute('media') === 'true';
      // The review's first picture at its smallest width; its width and height reserve the space.
      const thumbnail = (r) => {
        const m = r.media && r.media[0];
        // A frame (/embed/) keeps its height known in advance: no thumbnails there.
        if (!withMedia || !m || this.hasAttribute('frame')) return null;
        const small = m.variants.find((v) => v.url === m.thumbnail_url) || m;
        const img = el('img', { src: m.thumbnail_url, width: String(small.width), height: String(small.height), alt: m.alt || /*t:L.fill(L.photo, { number: '', author: r.author })*/`Photo from ${r.author}'s review`/*/t*/, loading: 'lazy', decoding: 'async' });
        return el('a', { class: 'thumb', href: m.video_url || m.url, target: '_top' }, img);
      };
      // A frame (/embed/) keeps its height known in advance: the translation is on the review's own page.
      const translation = (r) => {
        const given = r.translation;
        if (!given || this.hasAttribute('frame')) return null;
        const own = { lang: given.language, dir: 'auto' };
        const whose = el('span', { class: 'vh' }, .../*t:L.around(L.theReviewBy, el('bdi', {}, r.author))*/[' (the review by ', el('bdi', {}, r.author), ')']/*/t*/);
        return el(
          'details',
          { class: 'translation' },
          el('summary', {}, describeTranslator(given.by), whose),
          given.title ? el('p', { ...own, class: 'title' }, given.title) : null,
          el('p', own, clip(given.text)),
        );
      };
      const list =
        count === 0 || reviews.length === 0
          ? null
          : el(
              'ul',
              { class: 'reviews', 'aria-label': this.getAttribute('sort') === 'best' ? /*t:L.best*/'Best reviews'/*/t*/ : /*t:L.newest*/'Newest reviews'/*/t*/ },
              ...reviews.slice(0, count).map((r) =>
                el(
                  'li',
                  {},
                  el('p', { class: 'head' }, el('span', { class: 'stars', role: 'img', 'aria-label': /*t:L.fill(L.rated, { rating: r.rating })*/`Rated ${r.rating} out of 5`/*/t*/ }, formatStars(r.rating)), ' ', r.title ? el('bdi', { class: 'title', ...inLanguage(r.language) }, r.title) : null),
                  el('p', { class: 'text', dir: 'auto', ...inLanguage(r.language) }, clip(r.text)),
                  translation(r),
                  thumbnail(r),
                  el('p', { class: 'meta' }, el('bdi', {}, r.author), ' · ', el('a', { href: r.url, target: '_top' }, formatDate(r.date))),
                ),
              ),
            );
      const more = el('p', { class: 'more' }, el('a', { href: link, target: '_top' }, total === 0 ? /*t:L.seeReviews*/'See our reviews'/*/t*/ : /*t:L.counted(L.readAll, total)*/(total === 1 ? 'Read the review' : `Read all ${total.toLocaleString('en-US')} reviews`)/*/t*/));
      // The public review log (docs/log.md); a frame (/embed/) keeps its height known in advance: not there.
      const log =
        this.getAttribute('log') === 'false' || this.hasAttribute('frame')
          ? null
          : el('p', { class: 'log meta' }, el('a', { href: `${base}${logPath}`, target: '_top' }, /*t:L.log*/'Every published review is in a public log anyone can check'/*/t*/), ' · ', el('a', { href: `${base}${aboutReviewsPath}`, target: '_top' }, /*t:L.collected*/'How reviews are collected'/*/t*/));
      this.show(el('section', { class: 'box', 'aria-labelledby': 'rw-heading' }, heading, score, hist, list, more, log));
    }

    renderError(base) {
      this.show(el('section', { class: 'box' }, el('p', {}, /*t:L.error*/'Reviews could not be loaded. '/*/t*/, el('a', { href: `${base}/`, target: '_top' }, /*t:L.errorLink*/'Read them on our reviews page'/*/t*/))));
    }

    show(box) {
      const root = this.shadowRoot;
      box.setAttribute('lang', siteLanguage);
      root.replaceChildren(...[...root.childNodes].filter((node) => node.nodeName === 'STYLE'), box);
    }
  }

  customElements.define('reviews-widget', ReviewsWidget);
})();
