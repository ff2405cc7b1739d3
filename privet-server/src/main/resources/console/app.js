// Privet console: session, API client and router. Uses only the public /v1 API.
// The API key lives in sessionStorage for this tab only; sign-out removes it.
import { el } from './charts.js';
import * as pages from './pages.js';
import { playgroundPage } from './playground.js';

const KEY = 'privet.apiKey';
const ROLE = 'privet.role';

export const session = {
  get key() { return sessionStorage.getItem(KEY); },
  get role() { return sessionStorage.getItem(ROLE) || 'analyst'; },
  get signedIn() { return !!sessionStorage.getItem(KEY); },
  set(key, role) { sessionStorage.setItem(KEY, key); sessionStorage.setItem(ROLE, role); },
  clear() { sessionStorage.removeItem(KEY); sessionStorage.removeItem(ROLE); },
};

/** An API call; resolves to {ok, status, data} or {ok: false, status, error: {code, message, ...}}. */
export async function api(method, path, body, options) {
  const headers = { Accept: 'application/json' };
  const key = (options && options.key) || session.key;
  if (key) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (options && options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store', credentials: 'omit', redirect: 'error' });
  } catch (e) {
    return { ok: false, status: 0, error: { code: 'network', message: 'the server could not be reached' } };
  }
  const type = res.headers.get('Content-Type') || '';
  if (options && options.raw && res.ok) return { ok: true, status: res.status, response: res };
  let data = null;
  if (type.includes('application/json')) {
    try { data = await res.json(); } catch (e) { data = null; }
  } else {
    data = await res.text();
  }
  if (res.ok) return { ok: true, status: res.status, data, headers: res.headers };
  const error = data && data.error ? data.error : { code: String(res.status), message: `HTTP ${res.status}` };
  if (res.status === 401 && session.signedIn && !(options && options.key)) {
    session.clear();
    go('signin', { message: error.message });
  }
  return { ok: false, status: res.status, error };
}

/** The error box: the server's message, as text. */
export function errorBox(error, extra) {
  return el('div', { class: 'error', role: 'alert' },
    el('strong', { text: `${error.code}: ` }), el('span', { class: 'message', text: error.message }), extra || null);
}

const routes = {
  signin: pages.signInPage,
  datasets: pages.datasetsPage,
  query: pages.queryPage,
  budget: pages.budgetPage,
  history: pages.historyPage,
  synth: pages.synthPage,
  curator: pages.curatorPage,
  playground: playgroundPage,
};

const NAV = [
  ['datasets', 'Datasets', true],
  ['query', 'Query', true],
  ['budget', 'Budget', true],
  ['history', 'History', true],
  ['synth', 'Synthetic data', true],
  ['curator', 'Curator', 'curator'],
  ['playground', 'Playground', false],
];

let pending = {};

/** Navigates to a page; {@code state} is handed to the page once. */
export function go(page, state) {
  pending = state || {};
  const target = `#/${page}`;
  if (location.hash === target) render(); else location.hash = target;
}

function currentPage() {
  const m = /^#\/([a-z]+)/.exec(location.hash);
  const page = m && routes[m[1]] ? m[1] : (session.signedIn ? 'datasets' : 'signin');
  const needsKey = page !== 'playground' && page !== 'signin';
  if (needsKey && !session.signedIn) return 'signin';
  if (page === 'curator' && session.role !== 'curator') return 'datasets';
  return page;
}

function renderNav(page) {
  const nav = document.getElementById('nav');
  nav.replaceChildren();
  const ul = el('ul');
  for (const [id, label, needs] of NAV) {
    if (needs === true && !session.signedIn) continue;
    if (needs === 'curator' && (!session.signedIn || session.role !== 'curator')) continue;
    ul.appendChild(el('li', {}, el('a', { href: `#/${id}`, 'aria-current': id === page ? 'page' : null, text: label })));
  }
  if (session.signedIn) {
    ul.appendChild(el('li', {}, el('button', { type: 'button', id: 'signout', class: 'link', text: 'Sign out',
      onclick: () => { session.clear(); go('signin', { message: null, info: 'Signed out; the key was forgotten.' }); } })));
  } else {
    ul.appendChild(el('li', {}, el('a', { href: '#/signin', 'aria-current': page === 'signin' ? 'page' : null, text: 'Sign in' })));
  }
  nav.appendChild(ul);
  const who = document.getElementById('who');
  who.textContent = session.signedIn ? `signed in (${session.role})` : 'not signed in';
}

async function render() {
  const page = currentPage();
  renderNav(page);
  const main = document.getElementById('main');
  const state = pending;
  pending = {};
  main.replaceChildren(el('p', { class: 'loading', text: 'Loading…' }));
  main.setAttribute('data-page', page);
  main.setAttribute('aria-busy', 'true');
  try {
    const content = await routes[page](state);
    main.replaceChildren(content);
  } catch (e) {
    main.replaceChildren(errorBox({ code: 'console', message: 'this page failed to load' }));
  }
  main.setAttribute('aria-busy', 'false');
  const h = main.querySelector('h2');
  if (h) { h.setAttribute('tabindex', '-1'); h.focus({ preventScroll: true }); }
}

window.addEventListener('hashchange', render);
window.addEventListener('DOMContentLoaded', render);
