// The verdict of the trial a session ran for, above its loop: how its session ended (termination)
// says nothing about whether the trial passed, so the two are shown apart — the verdict with each
// check and why it failed, and where the trial sits in its run (scenario, cell, profile, configuration).
import { fmtMs, h } from './dom.js';

const VERDICT_TEXT = {
  unjudged: 'unjudged: no check applied',
  error: 'error: the trial did not run to a verdict',
  running: 'not judged yet',
  interrupted: 'interrupted (rerun as a new attempt)',
};

/** `#/run/<id>?cell=<key>`: the run page, at the cell this trial belongs to */
export const cellHref = (v) => `#/run/${encodeURIComponent(v.runId)}?cell=${encodeURIComponent(v.cellKey)}`;

export function verdictBadge(status, id) {
  return h('span', { class: `verdict verdict-${status}`, id }, `trial ${status}`);
}

const configText = (v) => `${v.configKey || 'defaults'}${Object.keys(v.config ?? {}).length ? ` (${JSON.stringify(v.config)})` : ''}`;

export function renderVerdict(v) {
  if (!v) return null;
  const fact = (label, ...value) => h('div', { class: 'fact' }, h('span', { class: 'muted' }, label), h('strong', {}, ...value));
  const checks = v.checks.length
    ? h(
        'ul',
        { class: 'checks' },
        v.checks.map((c) =>
          h(
            'li',
            { class: `check ${c.passed ? 'check-passed' : 'check-failed'}` },
            h('span', { class: 'check-mark', 'aria-label': c.passed ? 'passed' : 'failed' }, c.passed ? '✓' : '✗'),
            h('span', { class: 'check-name' }, c.expectation),
            c.detail ? h('span', { class: 'check-detail' }, c.detail) : null,
          ),
        ),
      )
    : h('p', { class: 'muted' }, v.status === 'running' ? 'The checks run when the session ends.' : 'No checks were recorded.');
  return h(
    'section',
    { class: `verdict-block verdict-block-${v.status}`, dataset: { status: v.status } },
    h(
      'div',
      { class: 'verdict-head' },
      h('h2', {}, 'Trial verdict'),
      verdictBadge(v.status),
      VERDICT_TEXT[v.status] ? h('span', { class: 'muted' }, VERDICT_TEXT[v.status]) : null,
      v.judged && v.failed.length ? h('span', { class: 'muted' }, `${v.failed.length} of ${v.checks.length} checks failed`) : null,
      h('a', { class: 'cell-link', href: cellHref(v) }, 'its cell in the run →'),
    ),
    h(
      'div',
      { class: 'verdict-facts' },
      fact(
        'scenario',
        v.scenarioId,
        v.scenarioTitle && v.scenarioTitle !== v.scenarioId ? h('span', { class: 'muted' }, ` ${v.scenarioTitle}`) : null,
      ),
      fact('run', h('a', { href: `#/run/${encodeURIComponent(v.runId)}` }, v.runId.slice(0, 8))),
      fact(
        'cell',
        h('a', { href: cellHref(v), class: 'cell-key', title: v.cellKey }, `${v.scenarioId} · ${v.model} · ${v.configKey || 'defaults'}`),
      ),
      fact('trial', `#${v.trialIndex}${v.attempt > 1 ? ` (attempt ${v.attempt})` : ''}`),
      fact('profile', v.profile ?? '–'),
      fact('configuration', configText(v)),
      fact('mode', v.mode),
      fact('took', fmtMs(v.durationMs)),
    ),
    checks,
    v.invariantViolations?.length
      ? h(
          'ul',
          { class: 'checks violations' },
          v.invariantViolations.map((x) =>
            h(
              'li',
              { class: 'check check-failed' },
              h('span', { class: 'check-mark' }, '!'),
              typeof x === 'string' ? x : JSON.stringify(x),
            ),
          ),
        )
      : null,
    v.error ? h('p', { class: 'error' }, v.error) : null,
  );
}
