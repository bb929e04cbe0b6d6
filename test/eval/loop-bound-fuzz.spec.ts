// Fuzzes the loop bound (direct-process.spec.md Invariant 2, issue 40): seeded random scripts mixing
// tool calls, repeats, three identical calls in one reply, fabricated tool output, empty and weak
// replies, repeated text, unknown tools (native and text-mode), denials and doom-loop asks, run under
// every loop profile with small caps on the stand-in through the real stack. Whatever the script,
// the step model calls that answered never exceed the cap, no invariant fires (loop_bounded and
// approval_wait_accounted among them), and the working time is never negative.
// LOUPE_LOOP_FUZZ_SEED and LOUPE_LOOP_FUZZ_CASES run other or more scripts.
import { stringify } from 'yaml';
import { seededRandom } from '../../src/common/seeded-random';
import { configurations, parseAxes } from '../../src/eval/run-plan';
import { ScenarioRunner } from '../../src/eval/scenario-runner.service';
import { parseScenario } from '../../src/eval/scenario/scenario-parser';
import type { Scenario } from '../../src/eval/scenario/scenario';
import type { TrialReport } from '../../src/eval/eval-types';
import { SessionQueryRepository } from '../../src/journal/session-query.repository';
import { LOOP_PROFILE_NAMES } from '../../src/process/policies/loop-settings';
import { createTestApp, type TestApp } from '../support/test-app';

const SEED = Number(process.env.LOUPE_LOOP_FUZZ_SEED ?? 20261140);
const CASES = Number(process.env.LOUPE_LOOP_FUZZ_CASES ?? 60);

type Turn = Record<string, unknown>;
const read = (path: string) => ({ name: 'read_file', arguments: { path } });
const CHANT = 'I am checking the file once more to be sure it is right. '.repeat(12).trim();

/** The moves a scripted model makes; `prev` is the turn before (for repeats). */
const MOVES: Array<(pick: <T>(xs: readonly T[]) => T, prev: Turn | undefined) => Turn> = [
  (pick) => ({ tool_calls: [read(pick(['a.txt', 'b.txt', 'missing.txt']))] }),
  (_pick, prev) => prev ?? { tool_calls: [read('a.txt')] },
  () => ({ tool_calls: [read('a.txt'), read('a.txt'), read('a.txt')] }),
  (pick) => ({ tool_calls: [{ name: 'write_file', arguments: { path: 'out.txt', content: pick(['x', 'y']) } }] }),
  () => ({
    tool_calls: [
      { name: 'list_files', arguments: {} },
      { name: 'teleport', arguments: { to: 'mars' } },
    ],
  }),
  () => ({ content: 'Checking.\n<<tool_output>>\n{ "answer": 42 }\n<</tool_output>>\nThe answer is 42.' }),
  () => ({ content: 'Reading it.\n[Tool Result] fake', tool_calls: [read('b.txt')] }),
  () => ({ content: '' }),
  (pick) => ({ content: pick(["I'll read the file now", 'Should I read it?', 'ok']) }),
  () => ({ content: CHANT }),
  () => ({ content: '<tool_call>\n{"name": "delete_everything", "arguments": {}}\n</tool_call>' }),
  () => ({ content: 'Done: a.txt says alpha and b.txt says beta, so they differ.' }),
  (pick) => ({ tool_calls: [read('a.txt')], prompt_eval_count: pick([7_400, 100]) }),
];

interface FuzzCase {
  scenario: Scenario;
  cap: number;
}

function fuzzCase(i: number, random: () => number): FuzzCase {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  const cap = pick([1, 2, 3]);
  const turns: Turn[] = [];
  for (let n = 1 + Math.floor(random() * 7); n > 0; n--) turns.push(pick(MOVES)(pick, turns[turns.length - 1]));
  // replies for epilogues and compactions; past them the script runs out (a provider error, also bounded)
  for (let n = 0; n < 3; n++) turns.push({ content: 'Summary: I read the files I could; a.txt says alpha.' });
  const doc = {
    id: `fuzz/loop-bound-${i}`,
    prompt: 'Compare a.txt and b.txt and write what differs to out.txt.',
    model: pick(['llama3.1:8b', 'llama3.1:8b', 'qwen3:8b']),
    config: { max_tool_iterations: cap, approval_timeout_ms: 2_000, ...(random() < 0.25 ? { doom_loop: 'ask' } : {}) },
    workspace: { files: { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' } },
    permissions: { default: 'allow', tools: { write_file: 'ask' } },
    approvals: [
      { tool: 'write_file', decision: pick(['approve', 'reject']), after_ms: 5 },
      { tool: 'doom_loop', decision: pick(['approve', 'reject']), after_ms: 5 },
    ],
    script: turns,
    success: [{ iterations: { max: cap + 1 } }],
  };
  const parsed = parseScenario(stringify(doc), `fuzz/loop-bound-${i}.yaml`);
  if (!parsed.ok) throw new Error(`generated scenario ${i} does not parse: ${JSON.stringify(parsed.problems)}\n${stringify(doc)}`);
  return { scenario: parsed.scenario, cap };
}

describe('loop bound fuzz: every model call counts, under every profile', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`${CASES} random scripts (seed ${SEED}) × ${LOOP_PROFILE_NAMES.length} profiles stay within their caps`, async () => {
    const random = seededRandom(SEED);
    const cases = Array.from({ length: CASES }, (_, i) => fuzzCase(i, random));
    const { axes, problems } = parseAxes([`profile=${LOOP_PROFILE_NAMES.join(',')}`]);
    expect(problems).toEqual([]);
    const report = await t.app.get(ScenarioRunner).run(
      cases.map((c) => c.scenario),
      { configurations: configurations(axes), concurrency: 4, seed: SEED },
    );
    expect(report.trials).toHaveLength(CASES * LOOP_PROFILE_NAMES.length);

    const sessions = t.app.get(SessionQueryRepository);
    const broken: Array<Record<string, unknown>> = [];
    const seen = new Set<string>();
    for (const trial of report.trials as TrialReport[]) {
      const { cap } = cases.find((c) => c.scenario.id === trial.scenarioId)!;
      const where = { scenario: trial.scenarioId, profile: trial.profile, cap };
      if (trial.status === 'error' || trial.invariantViolations.length) {
        broken.push({ ...where, error: trial.error, violations: trial.invariantViolations });
        continue;
      }
      const detail = await sessions.getSessionDetail(trial.sessionId!);
      const events = detail!.events;
      const stepCalls = events.filter((e) => e.type === 'inference_response' && e.payload.purpose === 'step').length;
      const finished = events.find((e) => e.type === 'session_finished')!.payload as { workingMs: number; approvalWaitMs: number };
      if (stepCalls > cap) broken.push({ ...where, stepCalls });
      if (finished.workingMs < 0) broken.push({ ...where, workingMs: finished.workingMs });
      seen.add(String(trial.terminationReason));
      for (const e of events) seen.add(e.type);
    }
    expect(broken).toEqual([]);
    // the scripts reached the paths the bound must hold on (a fuzz that never gets there checks nothing)
    const wanted = [
      'max_iterations',
      'completed',
      'mid_chain_nudge',
      'hallucination_stripped',
      'nudge',
      'tool_call_dropped',
      'approval_decided',
      'compaction',
      'content_loop_break',
      'repeat_break',
      'summary_epilogue',
      'permission_rejected',
    ];
    expect(wanted.filter((w) => !seen.has(w))).toEqual([]);
  }, 120_000);
});
