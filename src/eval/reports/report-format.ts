// Number and label formatting shared by the report renderers, so that JUnit properties and the
// Markdown tables say the same thing the same way.
import type { Proportion } from '../statistics/statistics-types';
import type { ReportTrial } from './report-input';

/** a configuration key as people read it: the defaults are `default` */
export function configLabel(configKey: string): string {
  return configKey === '' ? 'default' : configKey;
}

/** `model [config]`: the name of a model under a configuration */
export function modelConfigLabel(model: string, configKey: string): string {
  return `${model} [${configLabel(configKey)}]`;
}

/** 0.625 → `62.5%`, 1 → `100%` */
export function percent(x: number): string {
  return `${(x * 100).toFixed(1).replace(/\.0$/, '')}%`;
}

/** `30.6–86.3%`, or `–` without an interval */
export function percentInterval(p: { lo: number | null; hi: number | null }): string {
  if (p.lo === null || p.hi === null) return '–';
  return `${percent(p.lo).slice(0, -1)}–${percent(p.hi)}`;
}

/** `62.5% (5/8)`, or `– (0/0)` when nothing was judged */
export function rateWithCount(p: Proportion): string {
  return `${p.rate === null ? '–' : percent(p.rate)} (${p.successes}/${p.n})`;
}

/** a rate as a plain decimal for machine-read properties: `0.625`, `n/a` */
export function decimal(x: number | null, digits = 3): string {
  return x === null ? 'n/a' : x.toFixed(digits);
}

/** `850 ms`, `12.3 s`, `2 min 05 s` */
export function duration(ms: number): string {
  // thresholds at the rounding points, so 999.6 ms is not `1000 ms` nor 59.97 s `60.0 s`
  if (ms < 999.5) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** p-values as reports print them: three decimals, `<0.001` below that */
export function pValue(p: number | null): string {
  if (p === null) return '–';
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** the trials of one cell, in trial order */
export function trialsOfCell(trials: readonly ReportTrial[], scenarioId: string, model: string, configKey: string): ReportTrial[] {
  return trials
    .filter((t) => t.scenarioId === scenarioId && t.model === model && t.configKey === configKey)
    .sort((a, b) => a.trial - b.trial);
}

/** the failed expectations of a trial as one line each: `✗ expectation — detail` */
export function expectationLines(t: ReportTrial): string[] {
  return t.failedExpectations.map((e) => `✗ ${e.expectation}${e.detail ? ` — ${e.detail}` : ''}`);
}
