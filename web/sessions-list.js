// The session list: what each session was (its trial's scenario, or its prompt), under which
// profile and run, its verdict, iterations and duration; filters for each, applied by the server
// (GET /api/sessions query parameters, kept in the URL), paged, and updated live.
import { api, connect } from './api.js';
import { fmtMs, fmtTime, h, replace } from './dom.js';
import { terminationReasons } from './vocabulary.js';

const PAGE = 50;
const STATUSES = ['', 'running', 'finished']; // what the API filters on; the termination field says how it ended
/** a trial's status, or none: sessions that are no trial (GET /api/sessions?verdict=) */
const VERDICTS = ['', 'passed', 'failed', 'unjudged', 'error', 'running', 'interrupted', 'none'];
/** filter fields, in the order of the form; the API takes durations in ms, the form in seconds */
const FIELDS = [
  'scenario',
  'prompt',
  'profile',
  'run',
  'verdict',
  'model',
  'status',
  'termination',
  'minIterations',
  'maxIterations',
  'minDurationMs',
  'maxDurationMs',
];

const runHref = (t) => `#/run/${encodeURIComponent(t.runId)}`;
const cellHref = (t) => `${runHref(t)}?cell=${encodeURIComponent(`${t.scenarioId}|${t.model}|${t.configKey}`)}`;
const durationOf = (s) => s.durationMs ?? (s.finishedAt ? new Date(s.finishedAt) - new Date(s.startedAt) : null);

function what(s) {
  if (s.trial) {
    return h(
      'td',
      { class: 'what' },
      h('a', { href: `#/session/${s.id}`, class: 'scenario' }, s.trial.scenarioId),
      s.trial.scenarioTitle && s.trial.scenarioTitle !== s.trial.scenarioId
        ? h('div', { class: 'muted small' }, s.trial.scenarioTitle)
        : null,
    );
  }
  const prompt = (s.prompt ?? '').replace(/\s+/g, ' ').trim();
  return h(
    'td',
    { class: 'what' },
    h(
      'a',
      { href: `#/session/${s.id}`, class: 'prompt', title: prompt },
      prompt ? `${prompt.slice(0, 90)}${prompt.length > 90 || s.promptTruncated ? '…' : ''}` : `session ${s.id.slice(0, 8)}`,
    ),
  );
}

function sessionRow(s) {
  const t = s.trial;
  return h(
    'tr',
    { dataset: { sessionId: s.id, verdict: t?.status ?? 'none' } },
    what(s),
    h('td', {}, s.profile ?? '–'),
    h(
      'td',
      {},
      t
        ? [
            h('a', { href: runHref(t), class: 'run-link' }, t.runId.slice(0, 8)),
            ' ',
            h('a', { href: cellHref(t), class: 'muted small' }, `#${t.trialIndex}`),
          ]
        : h('span', { class: 'muted' }, '–'),
    ),
    h(
      'td',
      {},
      t ? h('span', { class: `verdict verdict-${t.status}` }, t.status) : h('span', { class: 'muted' }, s.trialId ? 'trial' : 'no trial'),
    ),
    h('td', {}, s.model),
    h(
      'td',
      {},
      h('span', { class: `status session-state state-${s.status}` }, s.status),
      s.terminationReason ? h('span', { class: 'muted small' }, ` ${s.terminationReason}`) : null,
    ),
    h('td', { class: 'num' }, s.iterations),
    h('td', { class: 'num' }, s.toolCallCount),
    h('td', { class: 'num' }, `${s.inputTokens} / ${s.outputTokens}`),
    h('td', { class: 'num', title: s.finishedAt ? `finished ${fmtTime(s.finishedAt)}` : 'running' }, fmtMs(durationOf(s))),
    h('td', { class: 'muted small', title: fmtTime(s.startedAt) }, fmtTime(s.startedAt)),
  );
}

/** URL parameters → API query (durations: seconds in the form, ms to the API) */
function apiQuery(params, offset) {
  const q = new URLSearchParams({ limit: String(PAGE), offset: String(offset) });
  for (const k of FIELDS) {
    const v = params.get(k);
    if (!v) continue;
    q.set(k, k.endsWith('DurationMs') ? String(Math.round(Number(v) * 1000)) : v);
  }
  return q;
}

export async function renderSessions({ main, setConnection }, params) {
  const filter = Object.fromEntries(FIELDS.map((k) => [k, params.get(k) ?? '']));
  const offset = Number(params.get('offset') ?? 0) || 0;
  const page = await api(`/api/sessions?${apiQuery(params, offset)}`);
  const items = new Map(page.items.map((s) => [s.id, s]));

  const input = (name, attrs = {}) => h('input', { name, value: filter[name], ...attrs });
  const select = (name, values) =>
    h('select', { name }, ...values.map((v) => h('option', { value: v, selected: v === filter[name] }, v || 'any')));
  const field = (label, control) => h('label', {}, label, control);
  const profiles = [...new Set([filter.profile, ...page.items.map((s) => s.profile)].filter(Boolean))];
  const form = h(
    'form',
    { class: 'filters' },
    field('Scenario', input('scenario', { placeholder: 'id or title contains' })),
    field('Prompt', input('prompt', { placeholder: 'contains' })),
    field('Profile', input('profile', { list: 'profiles', placeholder: 'loupe, opencode…', size: 10 })),
    h(
      'datalist',
      { id: 'profiles' },
      profiles.map((p) => h('option', { value: p })),
    ),
    field('Run', input('run', { placeholder: 'run id', size: 12 })),
    field('Verdict', select('verdict', VERDICTS)),
    field('Model', input('model', { size: 12 })),
    field('Status', select('status', STATUSES)),
    field('Termination', input('termination', { list: 'terminations', size: 12 })),
    h(
      'datalist',
      { id: 'terminations' },
      terminationReasons().map((r) => h('option', { value: r })),
    ),
    field(
      'Iterations',
      h(
        'span',
        { class: 'range' },
        input('minIterations', { type: 'number', min: 0, placeholder: 'min' }),
        input('maxIterations', { type: 'number', min: 0, placeholder: 'max' }),
      ),
    ),
    field(
      'Duration (s)',
      h(
        'span',
        { class: 'range' },
        input('minDurationMs', { type: 'number', min: 0, step: 'any', placeholder: 'min' }),
        input('maxDurationMs', { type: 'number', min: 0, step: 'any', placeholder: 'max' }),
      ),
    ),
    h('button', { type: 'submit' }, 'Filter'),
    Object.values(filter).some(Boolean) ? h('a', { href: '#/', class: 'clear-filters' }, 'clear') : null,
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (String(v).trim()) q.set(k, String(v).trim());
    location.hash = `#/?${q}`;
  });
  const nav = (to) => {
    const q = new URLSearchParams(params);
    q.set('offset', String(to));
    return `#/?${q}`;
  };
  const tbody = h('tbody', {}, page.items.map(sessionRow));
  const headers = [
    'Scenario / prompt',
    'Profile',
    'Run',
    'Verdict',
    'Model',
    'Status',
    'Iterations',
    'Tool calls',
    'Tokens in / out',
    'Duration',
    'Started',
  ];
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
          headers.map((t) => h('th', {}, t)),
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

  // a row that changes keeps what the list read beside it (its trial, prompt); new ones appear on an unfiltered first page
  const socket = connect(setConnection);
  socket.on('connect', () => socket.emit('sessions:subscribe', {}, () => {}));
  socket.on('session:update', ({ session }) => {
    const known = items.get(session.id);
    const merged = { ...known, ...session, durationMs: null, profile: session.profile ?? known?.profile ?? null };
    const row = tbody.querySelector(`tr[data-session-id="${CSS.escape(session.id)}"]`);
    if (row && known) {
      items.set(session.id, merged);
      row.replaceWith(sessionRow(merged));
    } else if (!row && offset === 0 && !Object.values(filter).some(Boolean)) {
      items.set(session.id, merged);
      tbody.prepend(sessionRow({ ...merged, trial: null }));
    }
  });
  // the server dropped what it held for this page (it fell behind): the page is read again
  socket.on('sessions:resync', async () => {
    const fresh = await api(`/api/sessions?${apiQuery(params, offset)}`).catch(() => null);
    if (!fresh) return;
    items.clear();
    for (const s of fresh.items) items.set(s.id, s);
    replace(tbody, ...fresh.items.map(sessionRow));
  });
  return () => socket.close();
}
