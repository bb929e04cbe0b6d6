// Progress of a run on stderr: a bar with the ETA and the running pass rate on a terminal; one
// plain line per finished trial elsewhere (CI logs).
import { SingleBar } from 'cli-progress';
import type { TrialReport } from '../eval/eval-types';

export interface EvalProgress {
  started(total: number): void;
  finished(trial: TrialReport): void;
  stop(): void;
}

const MARK = { passed: '✓', failed: '✗', unjudged: '?', error: '!' } as const;
const mark = (t: TrialReport) => MARK[t.status];
const label = (t: TrialReport) => `${t.scenarioId} [${t.model} #${t.trial}${t.configKey ? ` ${t.configKey}` : ''}]`;

export function evalProgress(stream: NodeJS.WriteStream = process.stderr): EvalProgress {
  if (!stream.isTTY) {
    return { started: () => {}, finished: (t) => stream.write(`${mark(t)} ${label(t)}\n`), stop: () => {} };
  }
  const bar = new SingleBar({
    stream,
    hideCursor: true,
    clearOnComplete: false,
    etaBuffer: 20,
    format: '{bar} {value}/{total} trials | {passRate} passed | ETA {eta_formatted} | {last}',
  });
  let running = false;
  let judged = 0;
  let passed = 0;
  return {
    started: (total) => {
      if (running) return;
      running = true;
      bar.start(total, 0, { passRate: '–', last: '' });
    },
    finished: (t) => {
      // the pass rate is over judged trials: unjudged and errored ones are neither passes nor failures
      if (t.status === 'passed' || t.status === 'failed') judged++;
      if (t.status === 'passed') passed++;
      bar.increment(1, { passRate: judged ? `${Math.round((passed / judged) * 100)}%` : '–', last: `${mark(t)} ${label(t)}` });
    },
    stop: () => {
      if (running) bar.stop();
    },
  };
}
