// The session list (filters: model, status, termination, run; paged; updated live) and the run list.
import { api, connect } from './api.js';
import { fmtMs, fmtPct, fmtTime, h, replace } from './dom.js';

const PAGE = 50;
const STATUSES = ['', 'running', 'finished']; // what the API filters on; the termination field says how it ended

const duration = (s) => (s.finishedAt ? new Date(s.finishedAt) - new Date(s.startedAt) : null);

function sessionRow(s) {
  return h(
    'tr',
    { dataset: { sessionId: s.id } },
    h('td', {}, h('a', { href: `#/session/${s.id}` }, fmtTime(s.startedAt))),
    h('td', {}, s.model),
    h('td', {}, h('span', { class: `status status-${s.status}` }, s.status)),
    h('td', {}, s.terminationReason ?? '–'),
    h('td', { class: 'num' }, s.iterations),
    h('td', { class: 'num' }, s.toolCallCount),
    h('td', { class: 'num' }, `${s.inputTokens} / ${s.outputTokens}`),
    h('td', { class: 'num' }, fmtMs(duration(s))),
  );
}

export async function renderSessions({ main, setConnection }, params) {
  const filter = {
    model: params.get('model') ?? '',
    status: params.get('status') ?? '',
    termination: params.get('termination') ?? '',
    run: params.get('run') ?? '',
  };
  const offset = Number(params.get('offset') ?? 0) || 0;
  const query = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  for (const [k, v] of Object.entries(filter)) if (v) query.set(k, v);
  const page = await api(`/api/sessions?${query}`);

  const field = (name, label, input) => h('label', {}, label, input ?? h('input', { name, value: filter[name] }));
  const status = h(
    'select',
    { name: 'status' },
    ...STATUSES.map((s) => h('option', { value: s, selected: s === filter.status }, s || 'any')),
  );
  const form = h(
    'form',
    { class: 'filters' },
    field('model', 'Model'),
    field('status', 'Status', status),
    field('termination', 'Termination'),
    field('run', 'Run'),
    h('button', { type: 'submit' }, 'Filter'),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (v) q.set(k, String(v));
    location.hash = `#/?${q}`;
  });
  const nav = (to) => {
    const q = new URLSearchParams(params);
    q.set('offset', String(to));
    return `#/?${q}`;
  };
  const tbody = h('tbody', {}, page.items.map(sessionRow));
  replace(
    main,
    h('h1', {}, 'Sessions'),
    form,
    h(
      'table',
      { class: 'list sessions' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Started', 'Model', 'Status', 'Termination', 'Iterations', 'Tool calls', 'Tokens in / out', 'Duration'].map((t) =>
            h('th', {}, t),
          ),
        ),
      ),
      tbody,
    ),
    h(
      'p',
      { class: 'pager' },
      `${page.total} session${page.total === 1 ? '' : 's'}`,
      offset > 0 ? h('a', { href: nav(Math.max(0, offset - PAGE)) }, ' ‹ newer') : null,
      offset + PAGE < page.total ? h('a', { href: nav(offset + PAGE) }, ' older ›') : null,
    ),
  );

  // sessions that change while the page is open update their row (new ones appear on the first page)
  const socket = connect(setConnection);
  socket.on('connect', () => socket.emit('sessions:subscribe', {}, () => {}));
  socket.on('session:update', ({ session }) => {
    const row = tbody.querySelector(`tr[data-session-id="${CSS.escape(session.id)}"]`);
    if (row) row.replaceWith(sessionRow(session));
    else if (offset === 0 && !Object.values(filter).some(Boolean)) tbody.prepend(sessionRow(session));
  });
  return () => socket.close();
}

export async function renderRuns({ main }) {
  const runs = await api('/api/eval-runs?limit=100');
  replace(
    main,
    h('h1', {}, 'Eval runs'),
    runs.length
      ? h(
          'table',
          { class: 'list runs' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Started', 'Status', 'Scenarios', 'Trials', 'Passed', 'Failed', 'Unjudged', 'Errored', 'Pass rate'].map((t) =>
                h('th', {}, t),
              ),
            ),
          ),
          h(
            'tbody',
            {},
            runs.map((r) =>
              h(
                'tr',
                {},
                h('td', {}, h('a', { href: `#/run/${r.id}` }, fmtTime(r.startedAt))),
                h('td', {}, h('span', { class: `status status-${r.status}` }, r.status)),
                h('td', { class: 'num' }, r.scenarioCount),
                h('td', { class: 'num' }, r.trialCount),
                h('td', { class: 'num' }, r.passed),
                h('td', { class: 'num' }, r.failed),
                h('td', { class: 'num' }, r.unjudged ?? 0),
                h('td', { class: 'num' }, r.errored),
                h('td', { class: 'num' }, fmtPct(r.statistics?.run?.passRate?.rate)),
              ),
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'No eval runs yet (loupe eval, or POST /api/eval-runs).'),
  );
  return () => {};
}
