// The single-turn trial the throughput and cost benches time: one scripted reply, a complete
// sentence (so no nudge asks for more: one model request per trial), served by a stand-in in its
// own process whose catalogued model takes P requests at once at about L ms a turn.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { stringify } from 'yaml';
import { countTokens } from '../src/standin/standin-tokenizer';
import { startStandin } from './child-standin';
import { chatRoundTrip } from './trial-floor';

export const BENCH_MODEL = 'bench:1b';
const ANSWER = 'The task is done.';
// the stand-in paces a reply by its own token count (5 here, the full stop one of them): counting
// words instead made every turn last 1.25 L, and capped the benches' ratios at 0.8 of their ideal
const ANSWER_TOKENS = countTokens(ANSWER);

export interface SingleTurnScenario {
  /** the scenario's id (its file is named after the last part) */
  id: string;
  /** requests the model serves at once */
  parallel: number;
  /** about how long a turn takes; left out, the stand-in answers at once */
  latencyMs?: number;
}

/** Writes the scenario into `dir` and returns its path. */
export function writeSingleTurnScenario(dir: string, s: SingleTurnScenario): string {
  const file = path.join(dir, `${path.basename(s.id)}.yaml`);
  fs.writeFileSync(
    file,
    stringify({
      id: s.id,
      title: 'single-turn trial',
      spec: 'bench',
      prompt: 'Say done.',
      model: BENCH_MODEL,
      catalog: [
        {
          name: BENCH_MODEL,
          family: 'llama',
          parameter_size: '1.0B',
          capabilities: ['completion', 'tools'],
          parallel: s.parallel,
          ...(s.latencyMs !== undefined ? { tokens_per_second: (ANSWER_TOKENS * 1_000) / s.latencyMs } : {}),
        },
      ],
      script: [{ content: ANSWER }],
      expect: [{ termination: 'completed' }],
      success: [{ final_answer: { contains: 'done' } }],
    }),
  );
  return file;
}

/** The scenario written into `dir` and a stand-in (its own process, replaying it for every session) serving it. */
export async function startSingleTurnStandin(
  dir: string,
  s: SingleTurnScenario,
): Promise<{ file: string; url: string; pid: number; stop: () => Promise<void> }> {
  const file = writeSingleTurnScenario(dir, s);
  return { file, ...(await startStandin(file)) };
}

/**
 * How long one turn of the stand-in's model really lasts (median of 5 streamed requests one after
 * another, as the floor's round trip makes them): the benches' ideal P/L rests on it. Throws when
 * it is more than 10% off `latencyMs`, so a stand-in paced differently from what the bench assumes
 * fails the bench instead of capping its ratios (a reply paced by words instead of tokens once did,
 * at 0.79).
 */
export async function checkTurnLength(url: string, latencyMs: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const body = JSON.stringify({ model: BENCH_MODEL, stream: true, messages: [{ role: 'user', content: 'Say done.' }] });
  const turn = async () => {
    const started = performance.now();
    await chatRoundTrip(agent, new URL(url), body);
    return performance.now() - started;
  };
  try {
    await turn(); // the model's load
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push(await turn());
    const median = times.sort((a, b) => a - b)[2];
    if (Math.abs(median - latencyMs) > latencyMs * 0.1)
      throw new Error(`bench: a stand-in turn lasts ${median.toFixed(0)} ms, not the ${latencyMs} ms the ideal P/L assumes`);
    return median;
  } finally {
    agent.destroy();
  }
}
