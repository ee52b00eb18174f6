/**
 * The search page's island: with JavaScript, the form and the page links update the results in
 * place instead of loading a new page. It fetches the same server-rendered page (so the results are
 * exactly what the page without JavaScript shows) and swaps in its results; the address bar follows
 * (history.pushState), so every state stays a shareable URL, and Back and Forward work.
 */
const form = document.querySelector<HTMLFormElement>('[data-search-form]');
const status = document.querySelector<HTMLElement>('[data-search-status]');

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
    if (!push) form.replaceChildren(...freshForm.childNodes);
    if (status) status.textContent = doc.querySelector('[data-search-status]')?.textContent ?? '';
    document.title = doc.title;
    if (push) history.pushState(null, '', url);
  } catch (error) {
    if ((error as Error).name !== 'AbortError') location.assign(url);
  }
}

if (form) {
  form.addEventListener('submit', (event) => {
    event.preventDefault();
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
