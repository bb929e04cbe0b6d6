// Simulated models (`sim:<persona>`), two figures:
// - independence: one cell of 1,000 simulated trials through the built CLI (its own process, the
//   embedded Postgres, LOUPE_SIM_TIME_SCALE=0 so personas' speeds cost no wall time). Cut into 100
//   blocks of 10 consecutive trials, the share of blocks whose 95% Wilson interval covers the
//   1,000-trial pass rate is printed beside what independent trials give at that rate (Wilson's
//   exact coverage at n = 10 swings around 95% with p), with the dispersion of the blocks' pass
//   counts (≈ 1 when independent; ≫ 1 when trials share state, 0 when they are identical);
// - cost: a simulated reply against a scripted one on the stand-in's reply path — the same
//   /api/chat request to a stand-in serving the persona and to one replaying the same reply as its
//   script (in process, timeScale 0: no pacing), median ms per request; and the persona's policy
//   alone (view, seeded rng, decide) in µs.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { wilson } from '../src/eval/statistics/proportion';
import { parseScenario } from '../src/eval/scenario/scenario-parser';
import { planOf as planOfScenario } from '../src/eval/sim-models';
import { findPersona } from '../src/sim/personas';
import { simulateReply, type SimRequest } from '../src/sim/sim-reply';
import type { SimPlan } from '../src/sim/sim-types';
import { simCatalogModel } from '../src/standin/standin-sim';
import { StandinServer } from '../src/standin/standin-server';
import { median, range, type BenchFigure } from './run-benchmarks';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'loupe.js');

export interface SimBenchOptions {
  scenario?: string;
  persona?: string;
  trials?: number;
  block?: number;
  /** requests per side of the reply-cost figure */
  requests?: number;
  /** trials per run and runs per side of the trial-cost figure */
  costTrials?: number;
  costRuns?: number;
}

interface CellTrial {
  trial: number;
  status: string;
}

/** One cell through the built CLI on the stand-in: `model` a persona (`sim:x`), or undefined for the scenario's script. */
function runCell(scenario: string, model: string | undefined, trials: number): Promise<{ trials: CellTrial[]; durationMs: number }> {
  return new Promise((resolve, reject) => {
    const args = ['eval', scenario, ...(model ? ['-m', model] : []), '-t', String(trials), '-c', '4', '--seed', '1', '--json'];
    const env: NodeJS.ProcessEnv = { ...process.env, LOUPE_SIM_TIME_SCALE: '0' };
    delete env.OLLAMA_HOST;
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      // exit 1 is a run with failed (or, scripted, unjudged) trials: what a persona that misbehaves gives
      if (code !== 0 && code !== 1) return reject(new Error(`loupe ${args.join(' ')} exited ${code}: ${err.slice(-2_000)}`));
      try {
        const j = JSON.parse(out) as { durationMs: number; trials: CellTrial[] };
        resolve({ trials: j.trials, durationMs: j.durationMs });
      } catch (e) {
        reject(new Error(`loupe ${args.join(' ')}: unreadable --json output (${String(e)}): ${err.slice(-1_000)}`));
      }
    });
  });
}

/** P(the 95% Wilson interval of Binomial(n, p) covers p): what independent trials give. */
export function wilsonCoverage(p: number, n: number): number {
  let covered = 0;
  let coeff = 1;
  for (let k = 0; k <= n; k++) {
    if (k > 0) coeff = (coeff * (n - k + 1)) / k;
    const w = wilson(k, n);
    if (w.lo! <= p && p <= w.hi!) covered += coeff * p ** k * (1 - p) ** (n - k);
  }
  return covered;
}

/** Block coverage and dispersion of one cell's outcomes, in trial order. */
export function independenceOf(passed: readonly boolean[], block: number) {
  const p = passed.filter(Boolean).length / passed.length;
  const counts: number[] = [];
  for (let i = 0; i + block <= passed.length; i += block) counts.push(passed.slice(i, i + block).filter(Boolean).length);
  const covering = counts.filter((k) => {
    const w = wilson(k, block);
    return w.lo! <= p && p <= w.hi!;
  }).length;
  const mean = counts.reduce((a, k) => a + k, 0) / counts.length;
  const variance = counts.reduce((a, k) => a + (k - mean) ** 2, 0) / (counts.length - 1);
  const binomial = block * p * (1 - p);
  return {
    rate: p,
    blocks: counts.length,
    coverage: covering / counts.length,
    expected: wilsonCoverage(p, block),
    dispersion: binomial > 0 ? variance / binomial : NaN,
  };
}

async function independence(scenario: string, persona: string, trials: number, block: number): Promise<BenchFigure[]> {
  const cell = await runCell(scenario, `sim:${persona}`, trials);
  const judged = cell.trials.filter((t) => t.status === 'passed' || t.status === 'failed').sort((a, b) => a.trial - b.trial);
  if (judged.length < trials * 0.9)
    throw new Error(`bench sim: only ${judged.length} of ${trials} trials were judged (${cell.trials.length} reported)`);
  const r = independenceOf(
    judged.map((t) => t.status === 'passed'),
    block,
  );
  const tag = `sim:${persona} ${path.basename(scenario, '.yaml')}`;
  return [
    {
      name: `sim.independence ${block}-trial Wilson coverage`,
      value: r.coverage,
      unit: 'share of blocks',
      note: `${r.blocks} blocks of ${tag}; ${judged.length}-trial rate ${r.rate.toFixed(3)}; independent trials give ${r.expected.toFixed(3)}`,
    },
    {
      name: 'sim.independence block dispersion',
      value: r.dispersion,
      unit: 'var / binomial var',
      note: '≈ 1 independent; ≫ 1 shared state; 0 identical trials',
    },
    { name: 'sim.independence cell run', value: cell.durationMs / judged.length, unit: 'ms/trial', note: `${trials} trials, -c 4` },
  ];
}

/** A mid-plan request: the first step called and answered, so the next step is due. */
function midPlanRequest(model: string, prompt: string, plan: SimPlan, tools: string[]): Record<string, unknown> {
  const first = plan.steps[0];
  return {
    model,
    stream: false,
    options: { seed: 7 },
    tools: tools.map((name) => ({
      type: 'function',
      function: { name, description: name, parameters: { type: 'object', properties: {} } },
    })),
    messages: [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: prompt },
      ...(first
        ? [
            { role: 'assistant', content: '', tool_calls: [{ function: { name: first.name, arguments: first.arguments } }] },
            { role: 'tool', tool_name: first.name, content: 'ok' },
          ]
        : []),
    ],
  };
}

async function timeRequests(url: string, body: Record<string, unknown>, n: number): Promise<number[]> {
  const text = JSON.stringify(body);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });
    if (!res.ok) throw new Error(`bench sim: ${res.status} ${await res.text()}`);
    await res.text();
    times.push(performance.now() - t0);
  }
  return times;
}

export async function replyCost(scenarioFile: string, persona: string, requests: number): Promise<BenchFigure[]> {
  const parsed = parseScenario(fs.readFileSync(scenarioFile, 'utf8'), scenarioFile);
  if (!parsed.ok) throw new Error(`bench sim: ${scenarioFile} does not parse`);
  const plan = planOfScenario(parsed.scenario);
  if (!plan) throw new Error(`bench sim: ${scenarioFile} has no plan`);
  const p = findPersona(persona);
  const tools = [...new Set(plan.steps.map((s) => s.name))];
  const simName = `sim:${persona}`;
  const body = midPlanRequest(simName, parsed.scenario.prompt, plan, tools);
  const request = { messages: body.messages as SimRequest['messages'], tools: body.tools as SimRequest['tools'], seed: 7 };
  // the reply the stand-in gives this request (the seed travels in options, as Loupe sends it)
  const decision = simulateReply(p, plan, request);
  const sim = new StandinServer({ timeScale: 0, sim: { [simName]: { persona: p, plan } } });
  // the scripted side serves the very reply the persona gives, from its script
  const scripted = new StandinServer({
    timeScale: 0,
    // the same model description as the persona's: only where the turn comes from differs
    catalog: [simCatalogModel('bench:8b', p)],
    script: {
      turns: {
        'bench:8b': [
          { content: decision.reply.content, ...(decision.reply.toolCalls.length ? { toolCalls: decision.reply.toolCalls } : {}) },
        ],
      },
      loop: true,
    },
  });
  const simUrl = (await sim.start()).url;
  const scriptedUrl = (await scripted.start()).url;
  try {
    const scriptedBody = { ...body, model: 'bench:8b' };
    // warm both paths, then alternate blocks so drift in the machine's load falls on both sides
    await timeRequests(simUrl, body, 50);
    await timeRequests(scriptedUrl, scriptedBody, 50);
    // request by request, in alternating order, so the machine's other work falls on both sides alike
    const simTimes: number[] = [];
    const scriptedTimes: number[] = [];
    for (let i = 0; i < requests; i++) {
      if (i % 2) {
        simTimes.push(...(await timeRequests(simUrl, body, 1)));
        scriptedTimes.push(...(await timeRequests(scriptedUrl, scriptedBody, 1)));
      } else {
        scriptedTimes.push(...(await timeRequests(scriptedUrl, scriptedBody, 1)));
        simTimes.push(...(await timeRequests(simUrl, body, 1)));
      }
    }
    const blocks = 10;
    const requestText = JSON.stringify(request);
    const policy: number[] = [];
    for (let b = 0; b < blocks; b++) {
      const t0 = performance.now();
      // a fresh request object each time, as the stand-in parses one per request
      for (let i = 0; i < 1_000; i++) simulateReply(p, plan, { ...(JSON.parse(requestText) as SimRequest), seed: i });
      policy.push(((performance.now() - t0) / 1_000) * 1_000);
    }
    const ratio = median(simTimes) / median(scriptedTimes);
    return [
      {
        name: 'sim.reply simulated',
        value: median(simTimes),
        unit: 'ms/request',
        note: `${simName}, ${decision.behaviour}; median of ${requests}, alternating with the scripted side`,
      },
      {
        name: 'sim.reply scripted (same reply)',
        value: median(scriptedTimes),
        unit: 'ms/request',
        note: `median of ${requests}`,
      },
      { name: 'sim.reply simulated / scripted', value: ratio, unit: 'ratio', note: 'simulated ÷ scripted, same reply' },
      {
        name: 'sim.policy alone (parse + view + rng + decide)',
        value: median(policy),
        unit: 'µs/reply',
        note: `range ${range(policy, 1)}`,
      },
    ];
  } finally {
    await sim.stop();
    await scripted.stop();
  }
}

/** A whole trial, scripted (the task's script replayed) against sim:diligent following the same plan: ms per trial. */
async function trialCost(scenario: string, trials: number, runs: number): Promise<BenchFigure[]> {
  const scripted: number[] = [];
  const simulated: number[] = [];
  for (let i = 0; i < runs; i++) {
    // alternating, so the machine's other work falls on both alike
    const a = await runCell(scenario, undefined, trials);
    const b = await runCell(scenario, 'sim:diligent', trials);
    scripted.push(a.durationMs / a.trials.length);
    simulated.push(b.durationMs / b.trials.length);
  }
  return [
    {
      name: 'sim.trial scripted',
      value: median(scripted),
      unit: 'ms/trial',
      note: `${trials} trials -c 4, median of ${runs} runs (range ${range(scripted, 1)})`,
    },
    { name: 'sim.trial sim:diligent (same plan)', value: median(simulated), unit: 'ms/trial', note: `range ${range(simulated, 1)}` },
  ];
}

export async function benchSim(options: SimBenchOptions = {}): Promise<BenchFigure[]> {
  const scenario = path.resolve(ROOT, options.scenario ?? 'scenarios/tasks/fix-failing-test.yaml');
  const persona = options.persona ?? 'repetitive';
  return [
    ...(await replyCost(scenario, persona, options.requests ?? 2_000)),
    ...(await trialCost(scenario, options.costTrials ?? 100, options.costRuns ?? 3)),
    ...(await independence(scenario, persona, options.trials ?? 1_000, options.block ?? 10)),
  ];
}
