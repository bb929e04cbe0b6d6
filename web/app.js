// The viewer's shell: the token, the event catalogue and the loop's vocabulary, hash routes (#/,
// #/runs, #/session/<id>, #/run/<id>, #/compare?a=…&b=…) and the connection indicator.
import { api, ApiError, forgetToken, getToken, setToken, takeTokenFromFragment } from './api.js';
import { h, replace } from './dom.js';
import { renderRun } from './run-view.js';
import { renderCompare } from './compare-view.js';
import { renderRuns } from './runs-list.js';
import { renderSessions } from './sessions-list.js';
import { renderSession } from './session-view.js';
import { loadVocabulary } from './vocabulary.js';

const main = document.getElementById('app');
const indicator = document.getElementById('connection');
let cleanup = () => {};
let catalogue;

export function setConnection(state) {
  indicator.dataset.state = state;
  indicator.textContent = state === 'idle' ? '' : state;
}

function askForToken(message) {
  const input = h('input', { type: 'password', name: 'token', autocomplete: 'off', placeholder: 'LOUPE_ADMIN_TOKEN', required: true });
  const form = h(
    'form',
    { class: 'token-form' },
    h('h1', {}, 'Loupe'),
    h('p', {}, message ?? 'The admin token (LOUPE_ADMIN_TOKEN, or the one Loupe saved in its home) opens the viewer.'),
    input,
    h('button', { type: 'submit' }, 'Open'),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    setToken(input.value.trim());
    void route();
  });
  replace(main, form);
}

/** type → { kind, description, group } from GET /api/events/catalogue (the one vocabulary) */
async function loadCatalogue() {
  const entries = await api('/api/events/catalogue');
  return new Map(entries.map((e) => [e.type, e]));
}

async function route() {
  cleanup();
  cleanup = () => {};
  setConnection('idle');
  takeTokenFromFragment(); // also when only the fragment changed (#token=… typed into an open page)
  if (!getToken()) return askForToken();
  const path = location.hash.replace(/^#/, '') || '/';
  // nothing of the page before stays on screen while this one loads
  replace(main, h('p', { class: 'muted loading' }, 'Loading…'));
  try {
    if (!catalogue) [catalogue] = await Promise.all([loadCatalogue(), loadVocabulary()]);
    // a query after the id (#/run/<id>?cell=…) is the page's own, not part of the id
    const [, page, id] = path.split('?')[0].split('/');
    const ctx = { main, catalogue, setConnection };
    if (page === 'session' && id) cleanup = await renderSession(ctx, decodeURIComponent(id));
    else if (page === 'run' && id) cleanup = await renderRun(ctx, decodeURIComponent(id));
    else if (page === 'runs') cleanup = await renderRuns(ctx, new URLSearchParams(path.split('?')[1] ?? ''));
    else if (page === 'compare') cleanup = await renderCompare(ctx, new URLSearchParams(path.split('?')[1] ?? ''));
    else cleanup = await renderSessions(ctx, new URLSearchParams(path.split('?')[1] ?? ''));
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      forgetToken();
      catalogue = undefined;
      return askForToken('That token was refused. Enter the admin token again.');
    }
    replace(main, h('p', { class: 'error' }, String(e.message ?? e)));
  }
}

// the API explorer opens with this tab's token, in the fragment (never sent to the server)
document.getElementById('api-docs').addEventListener('click', (e) => {
  const token = getToken();
  if (token) e.currentTarget.href = `/api/docs#token=${encodeURIComponent(token)}`;
});
document.getElementById('forget-token').addEventListener('click', () => {
  forgetToken();
  catalogue = undefined;
  void route();
});
window.addEventListener('hashchange', () => void route());
void route();
