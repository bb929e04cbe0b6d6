// The runs list, live: each run's mode, models, configurations, profiles, progress, verdict counts,
// pass rate and duration, its row redrawn as the run moves (a new run appears at the top). Two runs
// ticked open the compare page (the first ticked is the baseline).
import { api, connect } from './api.js';
import { fmtMs, fmtPct, fmtTime, h, replace } from './dom.js';
import { newerRun } from './run-cells.js';

const COLUMNS = [
  '',
  'Started',
  'Status',
  'Mode',
  'Models',
  'Configurations',
  'Profiles',
  'Trials',
  'Passed',
  'Failed',
  'Unjudged',
  'Errored',
  'Pass rate',
  'Duration',
];

const list = (items, empty = '–') => (items?.length ? items.map((x) => x || 'defaults').join(', ') : empty);

function runRow(r, picked, onPick) {
  const box = h('input', { type: 'checkbox', class: 'pick', title: 'compare', checked: picked.includes(r.id) });
  box.addEventListener('change', () => onPick(r.id, box.checked));
  const took = r.durationMs ?? (r.finishedAt ? null : Date.now() - Date.parse(r.startedAt));
  return h(
    'tr',
    { dataset: { runId: r.id, status: r.status } },
    h('td', {}, box),
    h('td', {}, h('a', { href: `#/run/${r.id}` }, fmtTime(r.startedAt))),
    h('td', {}, h('span', { class: `status status-${r.status}` }, r.status)),
    h('td', {}, h('span', { class: `mode mode-${r.mode}` }, r.mode)),
    h('td', {}, list(r.models)),
    h('td', {}, list(r.configurations, 'defaults')),
    h('td', {}, list(r.profiles)),
    h('td', { class: 'num' }, r.plannedTrials ? `${r.finishedTrials} / ${r.plannedTrials}` : String(r.finishedTrials)),
    h('td', { class: 'num' }, r.passed),
    h('td', { class: `num${r.failed ? ' bad' : ''}` }, r.failed),
    h('td', { class: 'num' }, r.unjudged ?? 0),
    h('td', { class: 'num' }, r.errored),
    h('td', { class: 'num' }, fmtPct(r.passRate)),
    h('td', { class: 'num' }, `${fmtMs(took)}${r.durationMs === null && !r.finishedAt ? ' so far' : ''}`),
  );
}

export async function renderRuns({ main, setConnection }, params = new URLSearchParams()) {
  const rows = new Map();
  // the baseline may come from a run page's "compare with another run"
  const picked = params.get('compare') ? [params.get('compare')] : [];
  const tbody = h('tbody', {});
  const compare = h('a', { class: 'button compare-link', id: 'compare-runs' }, 'Compare');
  const hint = h('span', { class: 'muted' });

  const drawCompare = () => {
    const ready = picked.length === 2;
    if (ready) compare.setAttribute('href', `#/compare?a=${picked[0]}&b=${picked[1]}`);
    else compare.removeAttribute('href');
    compare.classList.toggle('disabled', !ready);
    hint.textContent = ready
      ? `baseline ${picked[0].slice(0, 8)}, compared ${picked[1].slice(0, 8)}`
      : `tick two runs to compare them (${picked.length} ticked)`;
  };
  const onPick = (runId, on) => {
    const at = picked.indexOf(runId);
    if (on && at < 0) picked.push(runId);
    if (!on && at >= 0) picked.splice(at, 1);
    while (picked.length > 2) {
      const dropped = picked.shift();
      const box = tbody.querySelector(`tr[data-run-id="${CSS.escape(dropped)}"] input.pick`);
      if (box) box.checked = false;
    }
    drawCompare();
  };
  const put = (run) => {
    const merged = newerRun(rows.get(run.id), run);
    rows.set(run.id, merged);
    const row = runRow(merged, picked, onPick);
    const old = tbody.querySelector(`tr[data-run-id="${CSS.escape(run.id)}"]`);
    if (old) old.replaceWith(row);
    else tbody.prepend(row);
  };

  // live first, then the read; a row's newer snapshot wins whichever comes first
  const socket = connect(setConnection);
  let loaded = false;
  const early = [];
  socket.on('run:update', ({ run }) => (loaded ? put(run) : early.push(run)));
  socket.on('runs:resync', () => void reload());
  socket.on('connect', () => socket.emit('runs:subscribe', {}, () => {}));

  async function reload() {
    const runs = await api('/api/eval-runs?limit=100');
    for (const r of runs) rows.set(r.id, newerRun(rows.get(r.id), r));
    replace(
      tbody,
      [...rows.values()].sort((a, b) => Date.parse(b.startedAt) - Date.parse(a.startedAt)).map((r) => runRow(r, picked, onPick)),
    );
  }
  await reload();
  loaded = true;
  for (const r of early.splice(0)) put(r);
  drawCompare();

  replace(
    main,
    h('h1', {}, 'Eval runs'),
    h('p', { class: 'compare-bar' }, compare, ' ', hint),
    h(
      'table',
      { class: 'list runs' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          COLUMNS.map((t) => h('th', {}, t)),
        ),
      ),
      tbody,
    ),
    rows.size ? null : h('p', { class: 'muted empty-runs' }, 'No eval runs yet (loupe eval, or POST /api/eval-runs).'),
  );
  return () => socket.close();
}
