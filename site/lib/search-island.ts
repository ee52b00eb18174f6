/**
 * The search page's island: with JavaScript, the form and the page links update the results in
 * place instead of loading a new page. It fetches the same server-rendered page (so the results are
 * exactly what the page without JavaScript shows) and swaps in its results; the address bar follows
 * (history.pushState), so every state stays a shareable URL, and Back and Forward work.
 * The page folds its filters after a search (for phones); on a wide screen they are unfolded again,
 * and on a narrow one a sent form folds them, as a page load would.
 */
const form = document.querySelector<HTMLFormElement>('[data-search-form]');
const status = document.querySelector<HTMLElement>('[data-search-status]');
const wide = matchMedia('(min-width: 48rem)');

function unfoldOnWideScreens(): void {
  const filters = form?.querySelector<HTMLDetailsElement>('[data-search-filters]');
  if (filters && wide.matches) filters.open = true;
}

function urlOf(form: HTMLFormElement): string {
  const params = new URLSearchParams();
  for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value !== '' && !(name === 'sort' && value === 'newest')) params.append(name, value);
  const query = params.toString();
  return `${form.action.split('?')[0]}${query === '' ? '' : `?${query}`}`;
}

let pending: AbortController | undefined;

async function show(url: string, push: boolean): Promise<void> {
  const results = document.querySelector<HTMLElement>('[data-search-results]');
  if (!results || !form) return;
  pending?.abort();
  const controller = (pending = new AbortController());
  results.setAttribute('aria-busy', 'true');
  try {
    const response = await fetch(url, { headers: { Accept: 'text/html' }, signal: controller.signal });
    const doc = new DOMParser().parseFromString(await response.text(), 'text/html');
    const fresh = doc.querySelector('[data-search-results]');
    const freshForm = doc.querySelector<HTMLFormElement>('[data-search-form]');
    if (!fresh || !freshForm) throw new Error('not a search page');
    results.replaceWith(fresh);
    if (!push) {
      form.replaceChildren(...freshForm.childNodes);
      unfoldOnWideScreens();
    } else {
      // The fields are the visitor's own; only the folded filters' summary ("2 set") follows.
      const summary = form.querySelector('[data-search-filters] > summary');
      const freshSummary = freshForm.querySelector('[data-search-filters] > summary');
      if (summary && freshSummary) summary.replaceChildren(...freshSummary.childNodes);
    }
    if (status) status.textContent = doc.querySelector('[data-search-status]')?.textContent ?? '';
    document.title = doc.title;
    if (push) history.pushState(null, '', url);
  } catch (error) {
    if ((error as Error).name !== 'AbortError') location.assign(url);
  }
}

if (form) {
  unfoldOnWideScreens();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const filters = form.querySelector<HTMLDetailsElement>('[data-search-filters]');
    if (filters && !wide.matches) filters.open = false;
    void show(urlOf(form), true);
  });
  form.addEventListener('change', (event) => {
    if ((event.target as HTMLInputElement).name !== 'query') void show(urlOf(form), true);
  });
  document.addEventListener('click', (event) => {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-search-link]');
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void show(link.href, true).then(() => document.getElementById('results-heading')?.scrollIntoView());
  });
  addEventListener('popstate', () => void show(location.href, false));
}
