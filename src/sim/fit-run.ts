// `loupe personas fit RUN`: a recorded run (--record) read back from Postgres — each final trial's
// exchanges, exactly what its model was sent and wrote — and each trial's plan from its scenario
// file, turned into per-turn behaviours in their situations and estimated as a persona.
// Orchestration only: the decisions are in fit-turns.ts, persona-fit.ts, fit-shape.ts, fit-yaml.ts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { EvalRepository } from '../eval/eval.repository';
import type { RecordingRepository } from '../eval/recording/recording.repository';
import type { StoredExchange } from '../eval/recording/trial-replay';
import { formatProblem } from '../eval/scenario/scenario-errors';
import { parseScenario } from '../eval/scenario/scenario-parser';
import { planOf as planOfScenario } from '../eval/sim-models';
import { isFinal } from '../eval/trials/trial-rows';
import { shapeOf } from './fit-shape';
import { fitTurnsOf, recordedSteps } from './fit-turns';
import { fitTable, personaYaml } from './fit-yaml';
import { fitTurns, personaFromFit, type FitTurn, type PersonaFit } from './persona-fit';
import type { Persona, SimPlan } from './sim-types';

/** Bad input to the fit (the CLI answers exit 2). */
export class FitInputError extends Error {}

export interface FitRunOptions {
  /** the run's model to fit (required when the run has several) */
  model?: string;
  personaName?: string;
  /** a situation needs this many turns to get its own weights (default 5) */
  minTurns?: number;
  /** where the scenario files' relative paths start (default: the working directory) */
  cwd?: string;
}

export interface FitRunResult {
  model: string;
  trials: number;
  persona: Persona;
  fit: PersonaFit;
  yaml: string;
  table: string;
}

/** A persona name from a model name: `qwen3:8b` → `qwen3-8b`. */
export function fittedNameOf(model: string): string {
  return (
    model
      .replace(/^sim:/, '')
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'fitted'
  );
}

export async function fitRun(
  deps: { runs: EvalRepository; recordings: RecordingRepository },
  runId: string,
  opts: FitRunOptions = {},
): Promise<FitRunResult> {
  const cwd = opts.cwd ?? process.cwd();
  if (!(await deps.runs.getRun(runId))) throw new FitInputError(`no eval run ${runId}`);
  if (!(await deps.recordings.exchangeCount(runId)))
    throw new FitInputError(
      `run ${runId} was not recorded: the fit reads what the model was sent and wrote, exactly (run it with --record)`,
    );
  const trials = (await deps.runs.trialsOf(runId)).filter((t) => isFinal(t) && t.replacedBy === null);
  const models = [...new Set(trials.map((t) => t.model))].sort();
  if (opts.model !== undefined && !models.includes(opts.model))
    throw new FitInputError(`run ${runId} has no trials of model "${opts.model}" (models: ${models.join(', ') || 'none'})`);
  if (opts.model === undefined && models.length > 1)
    throw new FitInputError(`run ${runId} ran ${models.length} models: name one with --model (${models.join(', ')})`);
  const model = opts.model ?? models[0];
  if (model === undefined) throw new FitInputError(`run ${runId} has no finished trials`);

  const plans = new Map<string, SimPlan>();
  const planOf = (file: string, scenarioId: string): SimPlan => {
    const abs = path.resolve(cwd, file);
    const known = plans.get(abs);
    if (known) return known;
    if (!fs.existsSync(abs))
      throw new FitInputError(`${file}: the scenario of ${scenarioId} is not here (fit from the checkout that ran it)`);
    const parsed = parseScenario(fs.readFileSync(abs, 'utf8'), file, abs);
    if (!parsed.ok) throw new FitInputError(parsed.problems.map(formatProblem).join('\n'));
    const plan = planOfScenario(parsed.scenario);
    if (!plan) throw new FitInputError(`${file}: scenario ${scenarioId} has no solution and no script: nothing to fit its turns against`);
    plans.set(abs, plan);
    return plan;
  };

  const turns: FitTurn[] = [];
  const exchanges: StoredExchange[] = [];
  // how the model writes calls: natively if any reply carried message.tool_calls, else as text if it called at all
  let nativeCalls = false;
  let textCalls = false;
  let fitted = 0;
  for (const t of trials.filter((x) => x.model === model)) {
    const plan = planOf(t.scenarioFile, t.scenarioId);
    const recorded = await deps.recordings.recordedTrial(runId, t);
    if (!recorded) continue;
    const steps = recordedSteps(recorded.exchanges, model);
    nativeCalls ||= steps.some((s) => s.nativeCalls);
    textCalls ||= steps.some((s) => !s.nativeCalls && s.reply.content.trim() !== '');
    turns.push(...fitTurnsOf(steps, plan));
    exchanges.push(...recorded.exchanges);
    fitted++;
  }
  const fit = fitTurns(turns);
  const shape = shapeOf(model, exchanges, {
    name: opts.personaName ?? fittedNameOf(model),
    description: `fitted from ${model} in run ${runId} (${fitted} trials, ${fit.turns} model turns)`,
    native: nativeCalls || !textCalls,
  });
  const persona = personaFromFit(fit, shape, opts.minTurns);
  return { model, trials: fitted, persona, fit, yaml: personaYaml(persona, fit, `run ${runId}, model ${model}`), table: fitTable(fit) };
}
