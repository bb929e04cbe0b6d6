// An eval run, live: the results matrix (scenario rows × model · configuration columns, full width)
// fills in as trials finish — each cell coloured by its verdicts (red when any trial failed), its
// pass rate (with the 95% Wilson interval once the run's statistics are written), tokens, latency
// and terminations, and a chip per trial whose hover lists the failed checks' messages — with the
// progress and a steady ETA above it, a failures-only filter, and the roll-ups per model and
// configuration. The socket is followed before the run is read; the newer snapshot of each trial wins.
import { api, connect } from './api.js';
import { fmtMs, fmtPct, fmtTime, h, replace } from './dom.js';
import { pathologyLabel } from './vocabulary.js';
import { FINAL, cellKey, cellState, cellSummary, columnOf, eta, median, newerRun, newerTrial, trialTooltip } from './run-cells.js';

function interval(p) {
  if (!p || p.rate === null) return h('span', { class: 'muted' }, 'no judged trials');
  const bar = h('span', { class: 'ci-bar' }, h('span', { class: 'ci-range' }), h('span', { class: 'ci-point' }));
  // CSSOM, not style attributes: the page's CSP allows no inline styles
  bar.firstChild.style.left = `${p.lo * 100}%`;
  bar.firstChild.style.width = `${(p.hi - p.lo) * 100}%`;
  bar.lastChild.style.left = `${p.rate * 100}%`;
  return h(
    'span',
    { class: 'ci' },
    h(
      'span',
      {},
      h('strong', {}, fmtPct(p.rate)),
      ` ${p.successes}/${p.n} `,
      h('span', { class: 'muted' }, `[${fmtPct(p.lo)}–${fmtPct(p.hi)}]`),
    ),
    bar,
  );
}

function pathologies(stats) {
  const seen = Object.entries(stats?.pathologies ?? {}).filter(([, p]) => p.successes > 0);
  if (!seen.length) return null;
  return h(
    'ul',
    { class: 'pathologies' },
    seen.map(([key, p]) =>
      h(
        'li',
        { title: `${pathologyLabel(key)}: ${p.events} event(s); 95% Wilson ${fmtPct(p.lo)}–${fmtPct(p.hi)}`, dataset: { key } },
        `${pathologyLabel(key)} ${fmtPct(p.rate)}`,
      ),
    ),
  );
}

function chip(t) {
  const attrs = { class: `trial trial-${t.status}`, title: trialTooltip(t, fmtMs), dataset: { trialId: t.id, status: t.status } };
  return t.sessionId ? h('a', { ...attrs, href: `#/session/${t.sessionId}` }, `#${t.trialIndex}`) : h('span', attrs, `#${t.trialIndex}`);
}

/** One cell's contents: its verdicts, figures and chips. */
function cellContents(trials, stored) {
  const s = cellSummary(trials);
  const judged = s.passed + s.failed;
  const rate = stored?.statistics?.passRate
    ? interval(stored.statistics.passRate)
    : h('span', { class: 'live-rate' }, h('strong', {}, judged ? fmtPct(s.passed / judged) : '–'), ` ${s.passed}/${judged}`);
  const terms = [...s.terminations].map(([k, n]) => (n > 1 ? `${k} ×${n}` : k)).join(', ');
  const reasons = trials
    .filter((t) => !t.replacedBy && t.failed?.length)
    .flatMap((t) => t.failed.map((f) => `#${t.trialIndex} ${f.expectation}${f.detail ? `: ${f.detail}` : ''}`));
  return {
    state: cellState(s),
    summary: s,
    title: reasons.length ? reasons.join('\n') : undefined,
    nodes: [
      rate,
      s.failed ? h('div', { class: 'fail-text' }, `${s.failed} failed`) : null,
      s.unjudged ? h('div', { class: 'unjudged-text' }, `${s.unjudged} unjudged`) : null,
      s.error ? h('div', { class: 'error-text' }, `${s.error} errored`) : null,
      s.running ? h('div', { class: 'muted running-text' }, `${s.running} running`) : null,
      s.withTokens || s.working.length
        ? h(
            'div',
            { class: 'cell-figures' },
            s.withTokens
              ? h(
                  'span',
                  { title: 'mean tokens in / out per trial' },
                  `${Math.round(s.input / s.withTokens)}/${Math.round(s.output / s.withTokens)} tok`,
                )
              : null,
            s.working.length ? h('span', { title: 'median working time (approval waits left out)' }, fmtMs(median(s.working))) : null,
          )
        : null,
      terms ? h('div', { class: 'cell-terms muted', title: 'termination' }, terms) : null,
      pathologies(stored?.statistics),
      h(
        'span',
        { class: 'trials' },
        [...trials]
          .filter((t) => !t.replacedBy)
          .sort((a, b) => a.trialIndex - b.trialIndex)
          .map(chip),
      ),
    ],
  };
}

export async function renderRun({ main, setConnection }, id) {
  const state = { run: null, trials: new Map(), stored: new Map(), statistics: null, onlyFailures: false };
  const byCell = new Map(); // cellKey → Map(trial id → trial)
  const cellEls = new Map(); // cellKey → td
  let layout = ''; // the rows and columns drawn: a trial in a new one redraws the matrix
  const header = h('div', { class: 'run-head' });
  const matrixHolder = h('div', { class: 'matrix-holder' });
  const rollups = h('div', {});

  const addTrial = (t) => {
    const key = cellKey(t);
    let cell = byCell.get(key);
    if (!cell) byCell.set(key, (cell = new Map()));
    const next = newerTrial(cell.get(t.id), t);
    cell.set(t.id, next);
    state.trials.set(t.id, next);
    return key;
  };

  function drawCell(td, key) {
    const trials = [...(byCell.get(key)?.values() ?? [])];
    const c = cellContents(trials, state.stored.get(key));
    td.className = `cell cell-${c.state}`;
    td.dataset.state = c.state;
    if (c.title) td.title = c.title;
    else td.removeAttribute('title');
    replace(td, c.nodes);
  }

  function markRow(tr) {
    const failing = tr.querySelector('td.cell-failed, td.cell-error') !== null;
    tr.classList.toggle('has-failures', failing);
    tr.hidden = state.onlyFailures && !failing;
  }

  function drawMatrix() {
    const trials = [...state.trials.values()];
    const columns = [...new Set(trials.map(columnOf))].sort();
    const scenarios = [...new Set(trials.map((t) => t.scenarioId))].sort();
    const keyAt = new Map(trials.map((t) => [`${t.scenarioId}\u0000${columnOf(t)}`, cellKey(t)]));
    layout = `${scenarios.join('\u0001')}\u0002${columns.join('\u0001')}`;
    cellEls.clear();
    const body = h('tbody', {});
    for (const s of scenarios) {
      const tr = h('tr', { dataset: { scenario: s } }, h('th', { class: 'scenario' }, s));
      for (const col of columns) {
        const key = keyAt.get(`${s}\u0000${col}`);
        if (!key) {
          tr.append(h('td', { class: 'empty' }, '–'));
          continue;
        }
        const td = h('td', { dataset: { cell: key.replaceAll('\u0000', '|') } });
        cellEls.set(key, td);
        drawCell(td, key);
        tr.append(td);
      }
      markRow(tr);
      body.append(tr);
    }
    const table = h(
      'table',
      { class: 'matrix full' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'scenario'),
          columns.map((c) => h('th', {}, c)),
        ),
      ),
      body,
    );
    replace(matrixHolder, trials.length ? table : h('p', { class: 'muted' }, 'No trial has started yet.'));
  }

  function drawHeader() {
    const run = state.run;
    const left = eta(run);
    const done = run.finishedTrials;
    const planned = run.plannedTrials;
    const took = run.durationMs ?? (run.finishedAt ? null : Date.now() - Date.parse(run.startedAt));
    const profiles = run.profiles ?? [];
    replace(
      header,
      h('h1', {}, `Run ${run.id.slice(0, 8)}`, h('span', { id: 'run-status', class: `status status-${run.status}` }, run.status)),
      h(
        'p',
        { class: 'facts-line' },
        `${fmtTime(run.startedAt)} · ${run.mode} · ${fmtMs(took)} · ${run.scenarioCount} scenarios · ${run.models.join(', ') || '–'} · ${profiles.join(', ') || '–'} · `,
        h('span', { class: 'counts' }, `${run.passed} passed, ${run.failed} failed, ${run.unjudged ?? 0} unjudged, ${run.errored} errored`),
        ' · ',
        h('a', { href: `#/?run=${run.id}` }, 'its sessions'),
        profiles.length >= 2
          ? [
              ' · ',
              h(
                'a',
                {
                  class: 'compare-profiles',
                  href: `#/compare?a=${run.id}&b=${run.id}&profileA=${encodeURIComponent(profiles[0])}&profileB=${encodeURIComponent(profiles[1])}`,
                },
                `compare ${profiles[0]} with ${profiles[1]}`,
              ),
            ]
          : null,
        ' · ',
        h('a', { href: `#/runs?compare=${run.id}` }, 'compare with another run'),
      ),
      h(
        'div',
        { class: 'progress-line' },
        h('progress', { id: 'run-progress', max: planned ?? Math.max(done, 1), value: done }),
        h('span', { id: 'run-progress-text' }, `${done}${planned ? ` / ${planned}` : ''} trials`),
        left !== null ? h('span', { id: 'run-eta', class: 'muted' }, left < 5000 ? 'under 5 s left' : `about ${fmtMs(left)} left`) : null,
      ),
      state.statistics?.run ? h('p', {}, 'Whole run: ', interval(state.statistics.run.passRate)) : null,
    );
  }

  function drawRollups() {
    const rollup = (title, rows) =>
      rows?.length
        ? [
            h('h2', {}, title),
            h(
              'table',
              { class: 'list rollup' },
              h(
                'tbody',
                {},
                rows.map((r) =>
                  h(
                    'tr',
                    {},
                    h('th', {}, r.key || 'defaults'),
                    h('td', {}, interval(r.summary.passRate)),
                    h('td', {}, pathologies(r.summary)),
                  ),
                ),
              ),
            ),
          ]
        : null;
    replace(rollups, rollup('Per model', state.statistics?.models), rollup('Per configuration', state.statistics?.configs));
  }

  const filter = h('input', { type: 'checkbox', id: 'only-failures' });
  filter.addEventListener('change', () => {
    state.onlyFailures = filter.checked;
    for (const tr of matrixHolder.querySelectorAll('tbody tr')) markRow(tr);
  });

  async function load() {
    const page = await api(`/api/eval-runs/${encodeURIComponent(id)}/view`);
    state.run = newerRun(state.run, page.run);
    state.statistics = page.statistics;
    state.stored = new Map(page.cells.map((c) => [`${c.scenarioId}\u0000${c.model}\u0000${c.configKey}`, c]));
    for (const t of page.trials) addTrial(t);
    drawHeader();
    drawMatrix();
    drawRollups();
  }

  // live first, then the read: nothing that lands between the two is lost (the newer snapshot wins)
  const socket = connect(setConnection);
  let loaded = false;
  const early = [];
  const onTrial = (t) => {
    const key = addTrial(t);
    const td = cellEls.get(key);
    const probe = `${[...new Set([...state.trials.values()].map((x) => x.scenarioId))].sort().join('\u0001')}\u0002${[...new Set([...state.trials.values()].map(columnOf))].sort().join('\u0001')}`;
    if (!td || probe !== layout) drawMatrix();
    else {
      drawCell(td, key);
      markRow(td.parentElement);
    }
    if (FINAL.has(t.status)) main.dispatchEvent(new CustomEvent('run:trial', { detail: { id: t.id, status: t.status } }));
  };
  socket.on('run:trial', ({ runId, trial }) => {
    if (runId !== id) return;
    if (!loaded) early.push(trial);
    else onTrial(trial);
  });
  socket.on('run:update', ({ run }) => {
    if (run.id !== id || !loaded) return;
    const was = state.run.status;
    state.run = newerRun(state.run, run);
    drawHeader();
    // finished: its cells' statistics and the roll-ups are written now
    if (was !== state.run.status && state.run.status !== 'running') void load();
  });
  socket.on('run:resync', () => void load());
  socket.on('connect', () =>
    socket.emit('run:subscribe', { runId: id }, (ack) => {
      // the read may have missed what was recorded before the subscription: read again while it runs
      if (
        ack?.ok &&
        loaded &&
        (ack.run.status === 'running' || ack.run.finishedTrials !== state.run.finishedTrials || ack.run.status !== state.run.status)
      )
        void load();
    }),
  );

  await load();
  loaded = true;
  for (const t of early.splice(0)) onTrial(t);
  replace(
    main,
    header,
    h('div', { class: 'matrix-tools' }, h('h2', {}, 'Results'), h('label', { class: 'filter' }, filter, ' failures only')),
    matrixHolder,
    rollups,
  );
  const ticker = setInterval(() => state.run && !['finished', 'failed', 'interrupted'].includes(state.run.status) && drawHeader(), 5000);
  return () => {
    clearInterval(ticker);
    socket.close();
  };
}
