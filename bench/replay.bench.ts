// Replay speed (issue 14): trials per second replaying a recorded run (`loupe eval --replay RUN`,
// as fast as possible) against running the same scenarios on the scripted stand-in, both through
// the built CLI on the configured database. The recording is made once (`--record`, against the
// scripted stand-in); its own rate is reported too, as the cost of recording. The run's own duration
// is the measured span (process start-up is left out, as in the eval suite).
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { median, type BenchFigure } from './run-benchmarks';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');

/** Multi-turn scenarios with loop decisions (a nudge, a repeat break, a trim, a compaction, stream faults) and no long waits. */
const SCENARIOS = [
  'nudges/promised-action.yaml',
  'direct-process/repeat-detection-breaks-loop.yaml',
  'context/trim-message-count.yaml',
  'context/compaction-success.yaml',
  'ollama-provider/non-fatal-fault-consumes-turn.yaml',
].map((f) => path.join(ROOT, 'scenarios', f));

export interface ReplayBenchOptions {
  /** trials per cell */
  trials?: number;
  concurrency?: number;
  /** runs per figure (the median is reported) */
  runs?: number;
}

interface Run {
  runId: string;
  durationMs: number;
  trials: number;
  passed: number;
  requests: number;
}

function evalJson(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'eval', ...args, '--json'], {
      cwd: ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`loupe eval ${args.join(' ')} exited ${code}: ${err.slice(-2_000)}`));
      try {
        const j = JSON.parse(out) as {
          runId: string;
          durationMs: number;
          summary: { passed: number; trials: number };
          trials: Array<{ iterations: number }>;
        };
        resolve({
          runId: j.runId,
          durationMs: j.durationMs,
          trials: j.summary.trials,
          passed: j.summary.passed,
          requests: j.trials.reduce((n, t) => n + t.iterations, 0),
        });
      } catch (e) {
        reject(new Error(`loupe eval ${args.join(' ')}: unreadable --json output (${String(e)})`));
      }
    });
  });
}

const rate = (r: Run) => (r.trials * 1_000) / r.durationMs;

export async function benchReplay(options: ReplayBenchOptions = {}): Promise<BenchFigure[]> {
  const trials = options.trials ?? 4;
  const runs = options.runs ?? 3;
  const c = ['-c', String(options.concurrency ?? 4)];
  const started = performance.now();
  const recording = await evalJson([...SCENARIOS, '-t', String(trials), ...c, '--record']);
  if (recording.passed !== recording.trials) throw new Error('bench replay: the recorded run did not pass; fix that before timing it');
  const scripted: Run[] = [];
  const replayed: Run[] = [];
  // interleaved, so a slow patch of the machine hits both sides alike
  for (let i = 0; i < runs; i++) {
    scripted.push(await evalJson([...SCENARIOS, '-t', String(trials), ...c]));
    replayed.push(await evalJson(['--replay', recording.runId, ...c]));
  }
  if (replayed.some((r) => r.passed !== recording.trials || r.requests !== recording.requests))
    throw new Error('bench replay: a replay did not reproduce the recorded run (trials failed or the request count differs)');
  const scriptedRate = median(scripted.map(rate));
  const replayRate = median(replayed.map(rate));
  const note = `${recording.trials} trials (${SCENARIOS.length} scenarios × profiles × ${trials}), ${c.join(' ')}; median of ${runs}`;
  return [
    {
      name: 'replay.fast trials/s',
      value: replayRate,
      unit: 'trials/s',
      note: `${note}; run ${Math.round(median(replayed.map((r) => r.durationMs)))} ms`,
    },
    {
      name: 'replay.scripted-standin trials/s',
      value: scriptedRate,
      unit: 'trials/s',
      note: `the same scenarios on the scripted stand-in; run ${Math.round(median(scripted.map((r) => r.durationMs)))} ms`,
    },
    { name: 'replay.ratio replay/scripted', value: replayRate / scriptedRate, unit: '×' },
    {
      name: 'replay.recording trials/s',
      value: rate(recording),
      unit: 'trials/s',
      note: `--record against the scripted stand-in, one run; bench total ${Math.round((performance.now() - started) / 1000)} s`,
    },
  ];
}
