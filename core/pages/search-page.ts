/**
 * `/search/` for people: search, filter and sort the reviews. The build makes the page around the results
 * (site/pages/search/index.astro, a shell with marks, core/pages/page-slots.ts); the service fills it here
 * for each query from the live data of the same build, so it imports no code from a build. The form
 * GETs this page, so it works without JavaScript; the parameters are those of GET /api/reviews/search,
 * run through the same core path (runSearchRequest), so this page, REST and MCP cannot disagree. Fields
 * the form leaves empty are dropped before that. With JavaScript, site/lib/search-island.ts updates the
 * results in place. Each result marks the query and, after an aspect or opinion filter, the words that
 * decided it (highlight.ts). After a search, the filters fold under their summary, so on a phone the
 * results start on the first screen; the words field and the button stay in view.
 */
import type { LiveData } from '../dataset/live-data.ts';
import { runSearchRequest } from '../search/index.ts';
import { formatCount, plural } from '../text/text-rules.ts';
import { PATHS, prefixRootRelativeUrls, searchPagePath } from '../urls.ts';
import { formatDate } from './format.ts';
import { findReviewMarks } from './highlight.ts';
import { escapeText, writeAttributes } from './html.ts';
import { fillPageSlots } from './page-slots.ts';
import { listReviewLinks, renderReviewCard } from './review-card.ts';
import { describeSearchField, listAspectOptions, readSearchForm } from './search-form.ts';

type Option = { value: string; label: string };

const RATING_OPTIONS: Option[] = [{ value: '', label: 'Any rating' }, ...[5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: plural(n, 'star') }))];
const POLARITY_OPTIONS: Option[] = [
  { value: '', label: 'Any opinion' },
  { value: 'positive', label: 'Praised' },
  { value: 'neutral', label: 'Neutral' },
  { value: 'negative', label: 'Criticised' },
];
const SORT_OPTIONS: Option[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'highest', label: 'Highest rated first' },
  { value: 'lowest', label: 'Lowest rated first' },
];
const OPINION_VERBS = { positive: 'praises', neutral: 'says neutrally', negative: 'criticises' } as const;

/** The search page for the query string `query` in `shell` (the build's page with its marks): 200, or 400 with every problem named. */
export function renderSearchPage(shell: string, live: LiveData, query: URLSearchParams): { status: 200 | 400; html: string } {
  const { business } = live.dataset;
  const params = readSearchForm(query);
  const result = runSearchRequest(live.index, params);
  const value = (name: string) => params.get(name) ?? '';
  const hasFilters = [...params.keys()].some((name) => name !== 'cursor');
  const aspects = listAspectOptions(live.insights);
  const published = live.dataset.reviews;
  const firstDate = published.at(-1)?.date;
  const lastDate = published[0]?.date;
  const pageOf = (cursor: string | null) => {
    const next = new URLSearchParams(params);
    next.delete('cursor');
    if (cursor !== null) next.set('cursor', cursor);
    return searchPagePath(Object.fromEntries(next));
  };
  /** The option shown as chosen: the search's own reading of the filter when the search is valid, else the value as sent. */
  const chosen = (name: 'mentions_technician' | 'mentions_service' | 'aspect') => (result.ok ? (result.query[name] ?? '') : value(name));
  let summary: string;
  if (!result.ok) summary = 'Some filters need fixing.';
  else if (result.page.total === 0) summary = 'No review matches these filters.';
  else {
    const { offset, count, total } = result.page;
    summary = `${plural(total, 'review matches', { many: 'reviews match' })}${total > count ? `; showing ${formatCount(offset + 1)}–${formatCount(offset + count)}` : ''}.`;
  }
  const marking = result.ok ? { query: result.query.query, aspect: result.query.aspect, polarity: result.query.aspect_sentiment } : {};
  const aspectLabel = aspects.find((a) => a.id === marking.aspect)?.label;
  /** The legend of the evidence marks, when the search names an aspect or an opinion. */
  const evidenceLegend =
    marking.aspect === undefined && marking.polarity === undefined
      ? null
      : `what each review ${marking.polarity === undefined ? 'says' : OPINION_VERBS[marking.polarity]}${aspectLabel === undefined ? '' : ` about ${aspectLabel.toLowerCase()}`}`;
  /** The filters set besides the words, counted on the folded form's summary. */
  const filtersSet = [...params.keys()].filter((name) => !['query', 'cursor', 'limit', 'min_rating'].includes(name) && !(name === 'sort' && value('sort') === 'newest')).length;
  const dateField = (id: string, name: string, label: string) =>
    `<div class="field"><label${writeAttributes({ for: id })}>${label}</label><input${writeAttributes({ id, name, type: 'date', value: value(name), min: firstDate, max: lastDate })}></div>`;
  const checkField = (id: string, name: string, label: string) =>
    `<div class="field check"><input${writeAttributes({ id, name, type: 'checkbox', value: 'true', checked: value(name) === 'true' })}><label${writeAttributes({ for: id })}>${label}</label></div>`;
  const hidden = (name: string) => (params.has(name) ? `<input${writeAttributes({ type: 'hidden', name, value: value(name) })}>` : '');

  let main = `<h1>Search the reviews</h1><form${writeAttributes({ class: 'filters', method: 'get', action: PATHS.searchPage, role: 'search', 'aria-label': 'Reviews', 'data-search-form': true })}>`;
  main += `<div class="field wide"><label for="f-query">Words in the review</label><input${writeAttributes({ id: 'f-query', name: 'query', type: 'search', maxlength: '200', value: value('query'), placeholder: 'e.g. on time, water heater' })}></div>`;
  main += `<details${writeAttributes({ class: 'more-filters', open: !hasFilters || !result.ok, 'data-search-filters': true })}>`;
  main += `<summary>Filters and order${filtersSet > 0 ? `<span class="muted"> (${filtersSet} set)</span>` : ''}</summary><div class="filter-fields">`;
  main += renderSelect('f-rating', 'rating', 'Stars', RATING_OPTIONS, value('rating'));
  main += renderSelect('f-technician', 'mentions_technician', 'Technician', [{ value: '', label: 'Any technician' }, ...business.technicians.map((t) => ({ value: t.name, label: t.name }))], chosen('mentions_technician'));
  main += renderSelect('f-service', 'mentions_service', 'Service', [{ value: '', label: 'Any service' }, ...business.services.map((s) => ({ value: s.id, label: s.name }))], chosen('mentions_service'));
  main += renderSelect('f-aspect', 'aspect', 'Topic', [{ value: '', label: 'Any topic' }, ...aspects.map((a) => ({ value: a.id, label: a.label }))], chosen('aspect'));
  main += renderSelect('f-polarity', 'aspect_sentiment', 'Opinion', POLARITY_OPTIONS, value('aspect_sentiment'));
  main += dateField('f-since', 'since', 'From') + dateField('f-until', 'until', 'To');
  main += renderSelect('f-sort', 'sort', 'Order', SORT_OPTIONS, value('sort') || 'newest');
  main += checkField('f-reply', 'has_response', 'Only reviews with an owner reply') + checkField('f-media', 'has_media', 'Only reviews with photos');
  main += hidden('min_rating') + hidden('limit');
  main += `</div></details><div class="field actions"><button type="submit" class="button">Search</button><a${writeAttributes({ href: PATHS.searchPage })}>Clear all</a></div></form>`;
  main += `<p class="search-status" role="status" data-search-status>${hasFilters ? escapeText(summary) : ''}</p>`;
  main += `<section id="results" aria-labelledby="results-heading" data-search-results>`;
  main += `<h2 id="results-heading">${result.ok ? (hasFilters ? 'Results' : 'Newest reviews') : 'Please check these filters'}</h2>`;
  if (!result.ok) {
    const items = result.issues.map((issue) => `<li${writeAttributes({ 'data-code': issue.code })}><strong>${escapeText(describeSearchField(String(issue.path[0] ?? '')))}</strong> ${escapeText(issue.message)}.</li>`);
    main += `<ul class="issues">${items.join('')}</ul>`;
  } else {
    const { page, nextCursor } = result;
    if (evidenceLegend !== null && page.total > 0) main += `<p class="muted">Marked: <mark>${escapeText(evidenceLegend)}</mark>.</p>`;
    const links = listReviewLinks(business);
    for (const review of page.reviews) main += renderReviewCard(review, { level: 3, links, marks: findReviewMarks(review, marking) });
    if (nextCursor !== null || page.offset > 0) {
      main += '<nav class="pager" aria-label="More results">';
      main += page.offset > 0 ? `<a${writeAttributes({ href: pageOf(null), 'data-search-link': true })}>← First page</a>` : '<span></span>';
      main +=
        nextCursor !== null
          ? `<a${writeAttributes({ href: pageOf(nextCursor), rel: 'next', 'data-search-link': true })}>Next ${formatCount(Math.min(page.limit, page.total - page.offset - page.count))} reviews →</a>`
          : '<span></span>';
      main += '</nav>';
    }
    if (firstDate && lastDate && !hasFilters) main += `<p class="meta">${formatCount(published.length)} reviews from ${formatDate(firstDate)} to ${formatDate(lastDate)}.</p>`;
  }
  main += '</section>';
  const html = fillPageSlots(shell, {
    title: hasFilters ? `Search results: ${summary}` : `Search the reviews of ${business.name}`,
    noindex: hasFilters,
    // The shell's own links got the base path when the build made it (site/middleware.ts); these get it here.
    main: prefixRootRelativeUrls(main, live.urls.basePath),
  });
  return { status: result.ok ? 200 : 400, html };
}

/** A labelled drop-down of the form, with the option whose value is `selected` chosen. */
function renderSelect(id: string, name: string, label: string, options: readonly Option[], selected: string): string {
  const items = options.map((o) => `<option${writeAttributes({ value: o.value, selected: o.value === selected })}>${escapeText(o.label)}</option>`);
  return `<div class="field"><label${writeAttributes({ for: id })}>${escapeText(label)}</label><select${writeAttributes({ id, name })}>${items.join('')}</select></div>`;
}
