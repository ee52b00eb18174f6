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
import { PATHS, prefixRootRelativeUrls, searchPagePath } from '../urls.ts';
import { createTranslator, type Translator } from '../i18n/translator.ts';
import { DEFAULT_LOCALE } from '../i18n/locales.ts';
import { findReviewMarks } from './highlight.ts';
import { escapeText, fillHtml, rawHtml, writeAttributes } from './html.ts';
import { fillPageSlots } from './page-slots.ts';
import { listReviewLinks, renderReviewCard } from './review-card.ts';
import { describeSearchField, listAspectOptions, readSearchForm } from './search-form.ts';

type Option = { value: string; label: string };

/** The site's language: its words (core/i18n/) and the aspects' labels in it, by id (core/publishing/site-language.ts). */
export type SearchPageLanguage = { t: Translator; aspectLabels: Readonly<Record<string, string>> };

const ENGLISH: SearchPageLanguage = { t: createTranslator(), aspectLabels: {} };

/** The search page for the query string `query` in `shell` (the build's page with its marks): 200, or 400 with every problem named. */
export function renderSearchPage(shell: string, live: LiveData, query: URLSearchParams, { t, aspectLabels }: SearchPageLanguage = ENGLISH): { status: 200 | 400; html: string } {
  const words = t.m.search;
  const RATING_OPTIONS: Option[] = [{ value: '', label: words.anyRating }, ...[5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: t.plural(t.m.units.star, n) }))];
  const POLARITY_OPTIONS: Option[] = [
    { value: '', label: words.anyOpinion },
    { value: 'positive', label: words.praised },
    { value: 'neutral', label: words.neutral },
    { value: 'negative', label: words.criticised },
  ];
  const SORT_OPTIONS: Option[] = [
    { value: 'newest', label: words.newestFirst },
    { value: 'highest', label: words.highestFirst },
    { value: 'lowest', label: words.lowestFirst },
  ];
  const OPINION_VERBS = { positive: words.praises, neutral: words.saysNeutrally, negative: words.criticises } as const;
  const { business } = live.dataset;
  const params = readSearchForm(query);
  const result = runSearchRequest(live.index, params);
  const value = (name: string) => params.get(name) ?? '';
  const hasFilters = [...params.keys()].some((name) => name !== 'cursor');
  const aspects = listAspectOptions(live.insights, aspectLabels);
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
  if (!result.ok) summary = words.needFixing;
  else if (result.page.total === 0) summary = words.noMatch;
  else {
    const { offset, count, total } = result.page;
    const matches = t.plural(words.matches, total);
    summary = total > count ? t.fill(words.summaryShowing, { matches, from: t.count(offset + 1), to: t.count(offset + count) }) : t.fill(words.summary, { matches });
  }
  const marking = result.ok ? { query: result.query.query, aspect: result.query.aspect, polarity: result.query.aspect_sentiment } : {};
  const aspectLabel = aspects.find((a) => a.id === marking.aspect)?.label;
  /** The legend of the evidence marks, when the search names an aspect or an opinion. */
  const verb = marking.polarity === undefined ? words.says : OPINION_VERBS[marking.polarity];
  const evidenceLegend =
    marking.aspect === undefined && marking.polarity === undefined
      ? null
      : aspectLabel === undefined
        ? t.fill(words.legend, { verb })
        : t.fill(words.legendAbout, { verb, aspect: aspectLabel.toLowerCase() });
  /** The filters set besides the words, counted on the folded form's summary. */
  const filtersSet = [...params.keys()].filter((name) => !['query', 'cursor', 'limit', 'min_rating'].includes(name) && !(name === 'sort' && value('sort') === 'newest')).length;
  const dateField = (id: string, name: string, label: string) =>
    `<div class="field"><label${writeAttributes({ for: id })}>${fillHtml(label)}</label><input${writeAttributes({ id, name, type: 'date', value: value(name), min: firstDate, max: lastDate })}></div>`;
  const checkField = (id: string, name: string, label: string) =>
    `<div class="field check"><input${writeAttributes({ id, name, type: 'checkbox', value: 'true', checked: value(name) === 'true' })}><label${writeAttributes({ for: id })}>${fillHtml(label)}</label></div>`;
  const hidden = (name: string) => (params.has(name) ? `<input${writeAttributes({ type: 'hidden', name, value: value(name) })}>` : '');

  let main = `<h1>${fillHtml(words.heading)}</h1><form${writeAttributes({ class: 'filters', method: 'get', action: PATHS.searchPage, role: 'search', 'aria-label': words.formLabel, 'data-search-form': true })}>`;
  main += `<div class="field wide"><label for="f-query">${fillHtml(words.query)}</label><input${writeAttributes({ id: 'f-query', name: 'query', type: 'search', maxlength: '200', value: value('query'), placeholder: words.queryPlaceholder })}></div>`;
  main += `<details${writeAttributes({ class: 'more-filters', open: !hasFilters || !result.ok, 'data-search-filters': true })}>`;
  main += `<summary>${fillHtml(words.filtersAndOrder)}${filtersSet > 0 ? `<span class="muted">${fillHtml(t.plural(words.filtersSet, filtersSet))}</span>` : ''}</summary><div class="filter-fields">`;
  main += renderSelect('f-rating', 'rating', words.stars, RATING_OPTIONS, value('rating'));
  main += renderSelect('f-technician', 'mentions_technician', words.technician, [{ value: '', label: words.anyTechnician }, ...business.technicians.map((tech) => ({ value: tech.name, label: tech.name }))], chosen('mentions_technician'));
  main += renderSelect('f-service', 'mentions_service', words.service, [{ value: '', label: words.anyService }, ...business.services.map((s) => ({ value: s.id, label: s.name }))], chosen('mentions_service'));
  main += renderSelect('f-aspect', 'aspect', words.topic, [{ value: '', label: words.anyTopic }, ...aspects.map((a) => ({ value: a.id, label: a.label }))], chosen('aspect'));
  main += renderSelect('f-polarity', 'aspect_sentiment', words.opinion, POLARITY_OPTIONS, value('aspect_sentiment'));
  main += dateField('f-since', 'since', words.from) + dateField('f-until', 'until', words.to);
  main += renderSelect('f-sort', 'sort', words.order, SORT_OPTIONS, value('sort') || 'newest');
  main += checkField('f-reply', 'has_response', words.onlyReplied) + checkField('f-media', 'has_media', words.onlyPhotos);
  main += hidden('min_rating') + hidden('limit');
  main += `</div></details><div class="field actions"><button type="submit" class="button">${fillHtml(words.submit)}</button><a${writeAttributes({ href: PATHS.searchPage })}>${fillHtml(words.clear)}</a></div></form>`;
  main += `<p class="search-status" role="status" data-search-status>${hasFilters ? escapeText(summary) : ''}</p>`;
  main += `<section id="results" aria-labelledby="results-heading" data-search-results>`;
  main += `<h2 id="results-heading">${fillHtml(result.ok ? (hasFilters ? words.results : words.newest) : words.checkFilters)}</h2>`;
  if (!result.ok) {
    // The search's messages are the API's, in English; a page in another language names each problem by its code.
    const problems: Readonly<Record<string, string>> = words.problems;
    const explain = (code: string, message: string) => (t.locale === DEFAULT_LOCALE ? message : Object.hasOwn(problems, code) ? problems[code]! : problems.other!);
    const items = result.issues.map((issue) => `<li${writeAttributes({ 'data-code': issue.code })}><strong>${escapeText(describeSearchField(String(issue.path[0] ?? ''), t))}</strong> ${escapeText(explain(issue.code, issue.message))}.</li>`);
    main += `<ul class="issues">${items.join('')}</ul>`;
  } else {
    const { page, nextCursor } = result;
    if (evidenceLegend !== null && page.total > 0) main += `<p class="muted">${fillHtml(words.marked, { legend: rawHtml(`<mark>${escapeText(evidenceLegend)}</mark>`) })}</p>`;
    const links = listReviewLinks(business);
    // Every review of a build with a review log is in it (insights.jobs is null only without one); since when, the service does not hold.
    const logged = live.insights.jobs !== null;
    const jobsLogged = (live.insights.jobs?.jobs ?? 0) > 0;
    for (const review of page.reviews) main += renderReviewCard(review, { level: 3, links, marks: findReviewMarks(review, marking), logged, jobsLogged, t });
    if (nextCursor !== null || page.offset > 0) {
      main += `<nav${writeAttributes({ class: 'pager', 'aria-label': words.moreResults })}>`;
      main += page.offset > 0 ? `<a${writeAttributes({ href: pageOf(null), 'data-search-link': true })}>${fillHtml(words.firstPage)}</a>` : '<span></span>';
      main +=
        nextCursor !== null
          ? `<a${writeAttributes({ href: pageOf(nextCursor), rel: 'next', 'data-search-link': true })}>${fillHtml(t.plural(words.next, Math.min(page.limit, page.total - page.offset - page.count)))}</a>`
          : '<span></span>';
      main += '</nav>';
    }
    if (firstDate && lastDate && !hasFilters) main += `<p class="meta">${fillHtml(words.range, { count: t.count(published.length), first: t.date(firstDate), last: t.date(lastDate) })}</p>`;
  }
  main += '</section>';
  const html = fillPageSlots(shell, {
    title: hasFilters ? t.fill(words.resultsTitle, { summary }) : t.fill(words.title, { name: business.name }),
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
