// Progress of a run on stderr: a bar with the ETA and the running pass rate on a terminal; one
// plain line per finished trial elsewhere (CI logs), with the count and the ETA at its end. The ETA
// is ours (./eta.ts): cli-progress's own swings with every trial and can print `1m60s`.
import { SingleBar } from 'cli-progress';
import type { TrialReport } from '../eval/eval-types';
import { estimateRemainingMs, formatEta, insertSorted } from './eta';

export interface EvalProgress {
  started(total: number): void;
  finished(trial: TrialReport): void;
  stop(): void;
}

const MARK = { passed: '✓', failed: '✗', unjudged: '?', error: '!' } as const;
const mark = (t: TrialReport) => MARK[t.status];
const label = (t: TrialReport) => `${t.scenarioId} [${t.model} #${t.trial}${t.configKey ? ` ${t.configKey}` : ''}]`;

export function evalProgress(stream: NodeJS.WriteStream = process.stderr, opts: { concurrency?: number } = {}): EvalProgress {
  const concurrency = opts.concurrency ?? 1;
  let total = 0;
  /** ascending */
  const durations: number[] = [];
  const eta = () =>
    formatEta(estimateRemainingMs({ finishedMs: durations, remaining: total - durations.length, concurrency, sorted: true }));
  if (!stream.isTTY) {
    return {
      started: (n) => {
        if (!total) total = n;
      },
      finished: (t) => {
        insertSorted(durations, t.durationMs);
        const count = total ? ` (${durations.length}/${total}${durations.length < total ? `, ETA ${eta()}` : ''})` : '';
        stream.write(`${mark(t)} ${label(t)}${count}\n`);
      },
      stop: () => {},
    };
  }
  const bar = new SingleBar({
    stream,
    hideCursor: true,
    clearOnComplete: false,
    format: '{bar} {value}/{total} trials | {passRate} passed | ETA {etaText} | {last}',
  });
  let running = false;
  let judged = 0;
  let passed = 0;
  return {
    started: (n) => {
      if (running) return;
      running = true;
      total = n;
      bar.start(n, 0, { passRate: '–', last: '', etaText: '–' });
    },
    finished: (t) => {
      insertSorted(durations, t.durationMs);
      // the pass rate is over judged trials: unjudged and errored ones are neither passes nor failures
      if (t.status === 'passed' || t.status === 'failed') judged++;
      if (t.status === 'passed') passed++;
      bar.increment(1, {
        passRate: judged ? `${Math.round((passed / judged) * 100)}%` : '–',
        last: `${mark(t)} ${label(t)}`,
        etaText: eta(),
      });
    },
    stop: () => {
      if (running) bar.stop();
    },
  };
}
