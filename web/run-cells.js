// The run page's arithmetic, apart from the DOM: which snapshot of a trial or run is the newest
// (the live feed and a read can arrive in either order), what a matrix cell holds, how it reads on
// hover, and a steady ETA.

const TRIAL_RANK = { running: 0, interrupted: 1, passed: 2, failed: 2, unjudged: 2, error: 2 };
export const FINAL = new Set(['passed', 'failed', 'unjudged', 'error']);

/** The newer of two snapshots of one trial: a trial only moves forward (running → a verdict). */
export function newerTrial(old, next) {
  if (!old) return next;
  const a = TRIAL_RANK[old.status] ?? 0;
  const b = TRIAL_RANK[next.status] ?? 0;
  if (b !== a) return b > a ? next : old;
  if (old.replacedBy && !next.replacedBy) return old;
  return next;
}

const RUN_DONE = (s) => s !== 'running' && s !== 'queued';

/** The newer of two snapshots of a run's row: finished beats running, then more trials done. */
export function newerRun(old, next) {
  if (!old) return next;
  if (RUN_DONE(old.status) !== RUN_DONE(next.status)) return RUN_DONE(next.status) ? next : old;
  return next.finishedTrials >= old.finishedTrials ? next : old;
}

export const cellKey = (t) => `${t.scenarioId}\u0000${t.model}\u0000${t.configKey}`;
export const columnOf = (t) => `${t.model} · ${t.configKey || 'defaults'}`;

/** What a cell shows, from its trials' current attempts. */
export function cellSummary(trials) {
  const s = {
    trials: 0,
    running: 0,
    passed: 0,
    failed: 0,
    unjudged: 0,
    error: 0,
    input: 0,
    output: 0,
    withTokens: 0,
    working: [],
    terminations: new Map(),
  };
  for (const t of trials) {
    if (t.replacedBy) continue;
    s.trials++;
    if (t.status === 'running' || t.status === 'interrupted') s.running++;
    else s[t.status]++;
    if (t.tokens) {
      s.input += t.tokens.input;
      s.output += t.tokens.output;
      s.withTokens++;
    }
    if (t.workingMs !== null && t.workingMs !== undefined) s.working.push(t.workingMs);
    if (t.terminationReason) s.terminations.set(t.terminationReason, (s.terminations.get(t.terminationReason) ?? 0) + 1);
  }
  return s;
}

/** pass · fail · error · unjudged · running: what colours the cell (a failure anywhere makes it red) */
export function cellState(s) {
  if (s.failed) return 'failed';
  if (s.error) return 'error';
  if (s.running) return 'running';
  if (s.passed) return 'passed';
  if (s.unjudged) return 'unjudged';
  return 'empty';
}

export function median(values) {
  if (!values.length) return null;
  const v = [...values].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/** The chip's hover text: the verdict, then each failed check with its message. */
export function trialTooltip(t, fmtMs) {
  const lines = [`#${t.trialIndex} ${t.status}${t.attempt > 1 ? ` (attempt ${t.attempt})` : ''}`];
  if (t.terminationReason) lines.push(`termination: ${t.terminationReason}`);
  if (t.tokens) lines.push(`tokens: ${t.tokens.input} in / ${t.tokens.output} out`);
  if (t.firstTokenMs !== null && t.firstTokenMs !== undefined) lines.push(`first token: ${fmtMs(t.firstTokenMs)}`);
  if (t.workingMs !== null && t.workingMs !== undefined) lines.push(`working: ${fmtMs(t.workingMs)}`);
  for (const f of t.failed ?? []) lines.push(`✗ ${f.expectation}${f.detail ? `: ${f.detail}` : ''}`);
  if (t.error) lines.push(`error: ${t.error}`);
  return lines.join('\n');
}

/**
 * Time left at the run's average pace so far (elapsed / done × left), rounded to 5 s: it moves
 * with the whole run's rate, not the last trial's, so it does not swing. Null until a trial is done.
 */
export function eta(run, now = Date.now()) {
  if (!run.plannedTrials || !run.finishedTrials || RUN_DONE(run.status)) return null;
  const elapsed = now - Date.parse(run.startedAt);
  const left = Math.max(0, run.plannedTrials - run.finishedTrials);
  return Math.round(((elapsed / run.finishedTrials) * left) / 5000) * 5000;
}
