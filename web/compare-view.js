// Two runs compared (or two profiles of one run): the API's comparison as it stands — per cell, model,
// configuration and the whole run, each side's pass rate, the difference with its interval, the
// exact test, its p-value, the Holm-adjusted p (the verdict and the gate) and the Benjamini–Hochberg
// q over the same family. Rows without a verdict say why.
import { api } from './api.js';
import { fmtPct, h, replace } from './dom.js';

const fmtP = (p) => (p === null || p === undefined ? '–' : p < 0.001 ? p.toExponential(1) : p.toFixed(3));
const side = (s) =>
  h(
    'span',
    {},
    h('strong', {}, fmtPct(s.passRate.rate)),
    ` ${s.passed}/${s.passed + s.failed}`,
    s.unjudged || s.errored ? h('span', { class: 'muted' }, ` (+${s.unjudged} unjudged, ${s.errored} errored)`) : null,
  );
const diff = (r) =>
  r.difference === null
    ? '–'
    : `${r.difference > 0 ? '+' : ''}${(r.difference * 100).toFixed(0)} pts${r.differenceCi ? ` [${(r.differenceCi.lo * 100).toFixed(0)}, ${(r.differenceCi.hi * 100).toFixed(0)}]` : ''}`;
const label = (key) =>
  key
    .split('|')
    .map((p, i) => (i === 2 ? p || 'defaults' : p))
    .join(' · ');

function verdict(v, fallback) {
  return h('span', { class: `verdict verdict-${v ?? 'none'}` }, v ? v.replaceAll('_', ' ') : fallback);
}

function rowsTable(title, rows) {
  if (!rows.length) return null;
  return [
    h('h2', {}, title),
    h(
      'table',
      { class: 'list compare' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['', 'A', 'B', 'B − A [95% CI]', 'test', 'p', 'Holm p', 'BH q', 'verdict (Holm)', 'verdict (BH)'].map((t) => h('th', {}, t)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            { class: `compare-row row-${r.verdict ?? r.status}`, dataset: { key: r.key, level: r.level, verdict: r.verdict ?? '' } },
            h('th', { title: r.reason ?? '' }, label(r.key)),
            h('td', {}, side(r.a)),
            h('td', {}, side(r.b)),
            h('td', { class: 'num' }, diff(r)),
            h('td', {}, r.test ? r.test.replace('_exact', '') : '–'),
            h('td', { class: 'num' }, fmtP(r.pValue)),
            h('td', { class: 'num holm' }, fmtP(r.holm)),
            h('td', { class: 'num q' }, fmtP(r.q)),
            h('td', {}, verdict(r.verdict, r.status === 'compared' ? '–' : r.status.replaceAll('_', ' '))),
            h('td', {}, verdict(r.fdrVerdict, r.reason ?? '–')),
          ),
        ),
      ),
    ),
  ];
}

export async function renderCompare({ main }, params) {
  const a = params.get('a');
  const b = params.get('b');
  if (!a || !b) {
    replace(
      main,
      h('h1', {}, 'Compare'),
      h('p', { class: 'muted' }, 'Tick two runs in the runs list to compare them.'),
      h('a', { href: '#/runs' }, 'Runs'),
    );
    return () => {};
  }
  const q = new URLSearchParams({ a, b });
  for (const k of ['profileA', 'profileB', 'alpha']) if (params.get(k)) q.set(k, params.get(k));
  const [result, runA, runB] = await Promise.all([
    api(`/api/eval-runs/compare?${q}`),
    api(`/api/eval-runs/${encodeURIComponent(a)}/view`).then((p) => p.run),
    a === b ? null : api(`/api/eval-runs/${encodeURIComponent(b)}/view`).then((p) => p.run),
  ]);
  const c = result.comparison;
  const name = (id, run, profile) =>
    h(
      'span',
      {},
      h('a', { href: `#/run/${id}` }, id.slice(0, 8)),
      profile ? ` under ${profile}` : '',
      run ? h('span', { class: 'muted' }, ` (${run.mode}, ${run.models.join(', ')})`) : null,
    );
  const counts = (k) => `${k.regressed} regressed, ${k.improved} improved, ${k.unchanged} unchanged, ${k.notCompared} not compared`;
  const profiles = runA.profiles ?? [];
  replace(
    main,
    h(
      'h1',
      {},
      'Compare',
      h(
        'span',
        { id: 'gate', class: `status ${c.gate.fires ? 'status-failed' : 'status-finished'}` },
        c.gate.fires ? 'gate fires: a regression survives Holm' : 'gate holds',
      ),
    ),
    h('p', { class: 'facts-line' }, 'A (baseline) ', name(a, runA, result.profileA), ' · B ', name(b, runB ?? runA, result.profileB)),
    h(
      'p',
      { class: 'facts-line', id: 'compare-summary' },
      `α = ${c.alpha} · ${c.matchedCells} matched cells · family of ${c.family} tests · by Holm: ${counts(c.counts)} · by BH q: ${counts(c.fdrCounts)}`,
    ),
    a === b && profiles.length >= 2 && !result.profileA
      ? h(
          'p',
          {},
          'Profiles of this run: ',
          h('a', { href: `#/compare?a=${a}&b=${a}&profileA=${profiles[0]}&profileB=${profiles[1]}` }, `${profiles[0]} vs ${profiles[1]}`),
        )
      : null,
    c.gate.regressions.length
      ? h('p', { class: 'error-text' }, `Regressions after Holm: ${c.gate.regressions.map((r) => label(r.key)).join('; ')}`)
      : null,
    rowsTable('Whole run', [c.run]),
    rowsTable('Per model', c.models),
    rowsTable('Per configuration', c.configs),
    rowsTable('Per cell', c.cells),
    h(
      'p',
      { class: 'muted' },
      "Fisher's exact test for independent runs, McNemar's for trials paired by seed; pass rate = passed / (passed + failed). Holm's adjustment decides the verdicts and the gate; BH q is the false-discovery view of the same family.",
    ),
  );
  return () => {};
}
