// An eval run: the results matrix (scenario rows × model · configuration columns), each cell with
// its pass rate and 95% Wilson interval, its pathology rates and a link into every trial's session;
// then the roll-ups per model and configuration.
import { api } from './api.js';
import { fmtMs, fmtPct, fmtTime, h, replace } from './dom.js';

const column = (model, configKey) => `${model} · ${configKey || 'defaults'}`;

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
      h('li', { title: `${p.events} event(s); 95% Wilson ${fmtPct(p.lo)}–${fmtPct(p.hi)}` }, `${key} ${fmtPct(p.rate)}`),
    ),
  );
}

function trialLinks(trials) {
  return h(
    'span',
    { class: 'trials' },
    trials
      .sort((a, b) => a.trialIndex - b.trialIndex)
      .map((t) =>
        t.sessionId
          ? h(
              'a',
              { class: `trial trial-${t.status}`, href: `#/session/${t.sessionId}`, title: `${t.status}${t.error ? `: ${t.error}` : ''}` },
              `#${t.trialIndex}`,
            )
          : h('span', { class: `trial trial-${t.status}`, title: t.error ?? t.status }, `#${t.trialIndex}`),
      ),
  );
}

export async function renderRun({ main }, id) {
  const { run, cells, trials } = await api(`/api/eval-runs/${encodeURIComponent(id)}`);
  const columns = [...new Set(cells.map((c) => column(c.model, c.configKey)))].sort();
  const scenarios = [...new Set(cells.map((c) => c.scenarioId))].sort();
  const cellAt = (s, col) => cells.find((c) => c.scenarioId === s && column(c.model, c.configKey) === col);
  const trialsOf = (c) => trials.filter((t) => t.scenarioId === c.scenarioId && t.model === c.model && t.configKey === c.configKey);

  const matrix = h(
    'table',
    { class: 'matrix' },
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
    h(
      'tbody',
      {},
      scenarios.map((s) =>
        h(
          'tr',
          {},
          h('th', { class: 'scenario' }, s),
          columns.map((col) => {
            const c = cellAt(s, col);
            if (!c) return h('td', { class: 'empty' }, '–');
            return h(
              'td',
              { class: 'cell', dataset: { cell: c.key } },
              interval(c.statistics?.passRate),
              // no check applied to them: not in the pass rate, and never passes
              c.unjudged ? h('div', { class: 'unjudged-text' }, `${c.unjudged} unjudged`) : null,
              c.errored ? h('div', { class: 'error-text' }, `${c.errored} errored`) : null,
              pathologies(c.statistics),
              trialLinks(trialsOf(c)),
            );
          }),
        ),
      ),
    ),
  );

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
  const took = run.finishedAt ? new Date(run.finishedAt) - new Date(run.startedAt) : null;
  replace(
    main,
    h('h1', {}, `Run ${run.id.slice(0, 8)}`, h('span', { class: `status status-${run.status}` }, run.status)),
    h(
      'p',
      { class: 'facts-line' },
      `${fmtTime(run.startedAt)} · ${fmtMs(took)} · ${run.scenarioCount} scenarios · ${run.trialCount} trials · ${run.passed} passed, ${run.failed} failed, ${run.unjudged ?? 0} unjudged, ${run.errored} errored · `,
      h('a', { href: `#/?run=${run.id}` }, 'its sessions'),
    ),
    run.statistics?.run ? h('p', {}, 'Whole run: ', interval(run.statistics.run.passRate)) : null,
    h('h2', {}, 'Results'),
    matrix,
    rollup('Per model', run.statistics?.models),
    rollup('Per configuration', run.statistics?.configs),
  );
  return () => {};
}
