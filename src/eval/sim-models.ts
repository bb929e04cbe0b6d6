// Simulated models in a run: a model named `sim:<persona>` is served by each trial's stand-in from
// that persona's policy, following the scenario's plan (its `solution:`, else its script). Which
// models are simulated, the plan of a scenario, the personas a run needs, and the bad input that
// stops a run before anything runs (an unknown persona, a broken persona file, a scenario with
// nothing to follow, simulated models mixed with others). Pure but for reading persona files.
import type { Persona, SimPlan } from '../sim/sim-types';
import { findPersona, SHIPPED_PERSONAS_DIR } from '../sim/personas';
import { PersonaFileError, UnknownPersonaError } from '../sim/persona-errors';
import type { StandinScript, StandinTurn } from '../standin/standin-script';
import type { Scenario } from './scenario/scenario';
import { plannedModels } from './run-plan';
import type { EvalRunOptions } from './eval-types';

export const SIM_MODEL_PREFIX = 'sim:';

export function isSimModel(model: string): boolean {
  return model.toLowerCase().startsWith(SIM_MODEL_PREFIX) && model.length > SIM_MODEL_PREFIX.length;
}

/** `sim:repetitive` → `repetitive` */
export function personaNameOf(model: string): string {
  return model.slice(SIM_MODEL_PREFIX.length);
}

/** The directories personas are read from: the shipped ones, then the configured and given ones (a later one wins). */
export function personaDirs(...extra: Array<string | undefined>): string[] {
  return [SHIPPED_PERSONAS_DIR, ...extra.filter((d): d is string => Boolean(d))];
}

/** The script's turn list a plan is read from: the one for any model, else the first model's. */
function turnsOf(script: StandinScript): StandinTurn[] {
  const turns = script.turns ?? {};
  return turns['*'] ?? Object.values(turns)[0] ?? [];
}

/**
 * A script as a plan: its native tool calls in order are the steps; its last turn with content and
 * no calls is the final answer. Undefined when it has neither (nothing to follow).
 */
export function planFromScript(script: StandinScript): SimPlan | undefined {
  const turns = turnsOf(script);
  const steps = turns.flatMap((t) => (t.toolCalls ?? []).map((c) => ({ name: c.name, arguments: c.arguments ?? {} })));
  const answer = [...turns].reverse().find((t) => !t.toolCalls?.length && (t.content ?? '').trim() !== '');
  if (!steps.length && !answer) return undefined;
  return { steps, finalAnswer: answer?.content ?? 'Done.' };
}

/** What a simulated model follows on this scenario: its `solution:`, else its script. */
export function planOf(scenario: Pick<Scenario, 'solution' | 'script'>): SimPlan | undefined {
  return scenario.solution ?? planFromScript(scenario.script);
}

/** Personas by model name (`sim:x`), as a run stores them: what its trials, workers and a resume serve. */
export type RunPersonas = Record<string, Persona>;

/**
 * Reads the persona of every simulated model; throws UnknownPersonaError (the known ones, a close
 * match) or PersonaFileError (file, line, field) on the first that fails.
 */
export function resolvePersonas(models: readonly string[], dirs: string[]): RunPersonas {
  const out: RunPersonas = {};
  for (const model of models) if (isSimModel(model)) out[model] = findPersona(personaNameOf(model), dirs);
  return out;
}

/**
 * Why this run of simulated models cannot run, each problem a line (empty: it can): simulated and
 * other models in one run (its trials are judged one way: scripted by `expect`, simulated by
 * `success`), a real Ollama set (simulated models are the stand-in's), a scenario with neither
 * `solution:` nor a script to follow.
 */
export function simRunProblems(scenarios: readonly Scenario[], models: readonly string[] | undefined, liveHost?: string): string[] {
  const planned = plannedModels(scenarios, models);
  const simulated = planned.filter(isSimModel);
  if (!simulated.length) return [];
  const problems: string[] = [];
  const others = planned.filter((m) => !isSimModel(m));
  if (others.length)
    problems.push(`simulated models (${simulated.join(', ')}) cannot share a run with others (${others.join(', ')}): run them separately`);
  if (liveHost)
    problems.push(`simulated models (${simulated.join(', ')}) are served by Loupe's stand-in: unset OLLAMA_HOST (${liveHost}) to run them`);
  const underPersona = models?.length ? scenarios : scenarios.filter((s) => s.model !== undefined && isSimModel(s.model));
  for (const s of underPersona)
    if (!planOf(s))
      problems.push(
        `${s.file}: scenario ${s.id} has no solution to follow: give it a \`solution:\` (tool calls and final_answer) or a script to run it under a persona`,
      );
  return problems;
}

/** A run of simulated models only (its mode is `sim`). */
export function isSimRun(models: readonly string[]): boolean {
  return models.length > 0 && models.every(isSimModel);
}

/** What a trial's stand-in serves for a simulated model: its persona and the scenario's plan (undefined for other models). */
export function simModelOf(
  job: { model: string; scenario: Pick<Scenario, 'id' | 'file' | 'solution' | 'script'> },
  personas: RunPersonas | undefined,
): SimBackend | undefined {
  if (!isSimModel(job.model)) return undefined;
  const persona = personas?.[job.model];
  if (!persona) throw new Error(`simulated model ${job.model}: its persona was not read for this run`);
  const plan = planOf(job.scenario);
  if (!plan) throw new Error(`${job.scenario.file}: scenario ${job.scenario.id} has no solution for ${job.model} to follow`);
  return { model: job.model, persona, plan };
}

export interface SimBackend {
  model: string;
  persona: Persona;
  plan: SimPlan;
}

/**
 * A run's options with the personas of its simulated models (read from the personas directories
 * unless given; none: the options as they were). Bad input throws: the CLI checks it first (exit 2).
 */
export function withPersonas(
  scenarios: readonly Scenario[],
  options: EvalRunOptions,
  config: { ollama: { host?: string }; sim: { personasDir?: string } },
): EvalRunOptions {
  const models = plannedModels(scenarios, options.models);
  if (!models.some(isSimModel)) return options;
  const problems = simRunProblems(scenarios, options.models, config.ollama.host);
  if (problems.length) throw new Error(problems.join('\n'));
  return { ...options, personas: options.personas ?? resolvePersonas(models, personaDirs(config.sim.personasDir)) };
}

/** Why a run of these models cannot run (simRunProblems, an unknown persona, a broken persona file); empty: it can. */
export function simRunRefusal(
  scenarios: readonly Scenario[],
  models: readonly string[] | undefined,
  config: Parameters<typeof withPersonas>[2],
): string[] {
  const planned = plannedModels(scenarios, models);
  if (!planned.some(isSimModel)) return [];
  const problems = simRunProblems(scenarios, models, config.ollama.host);
  if (problems.length) return problems;
  try {
    resolvePersonas(planned, personaDirs(config.sim.personasDir));
    return [];
  } catch (e) {
    if (e instanceof UnknownPersonaError || e instanceof PersonaFileError) return [e.message];
    throw e;
  }
}
