import type { Command } from 'commander';
import type { LoupeConfig } from '../../config/loupe-config';
import type { Scenario } from '../../eval/scenario/scenario';
import { loadScenarios } from '../../eval/scenario/scenario-loader';
import { personaDirs, planOf, resolvePersonas, SIM_MODEL_PREFIX } from '../../eval/sim-models';
import { PersonaFileError, UnknownPersonaError } from '../../sim/persona-errors';
import type { StandinCliOptions } from '../../standin/standin-cli';
import type { StandinSimModel } from '../../standin/standin-sim';
import { lazy } from '../lazy';
import { UsageError } from './eval.command';

function portNumber(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port: expected 0-65535, got ${JSON.stringify(value)}`);
  return n;
}

function positiveInt(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag}: expected a whole number ≥ 1, got ${JSON.stringify(value)}`);
    return n;
  };
}

function timeScale(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new UsageError(`--time-scale: expected a number ≥ 0, got ${JSON.stringify(value)}`);
  return n;
}

const CLOUD_STATES = ['signed_in', 'signed_out', 'disabled'] as const;

function cloudState(value: string): (typeof CLOUD_STATES)[number] {
  if (!(CLOUD_STATES as readonly string[]).includes(value))
    throw new UsageError(`--cloud: expected ${CLOUD_STATES.join(', ')}, got ${JSON.stringify(value)}`);
  return value as (typeof CLOUD_STATES)[number];
}

export interface StandinFlags {
  scenario?: string;
  port: number;
  host: string;
  loop?: boolean;
  ollamaVersion?: string;
  contextLength?: number;
  maxLoadedModels?: number;
  gpuVramBytes?: number;
  timeScale?: number;
  cloud?: (typeof CLOUD_STATES)[number];
  numParallel?: number;
  sim?: string[];
}

/**
 * `--sim <persona>`: `sim:<persona>` served as `loupe eval -m sim:<persona>` serves it to a trial,
 * following the scenario's plan (its `solution:`, else its script).
 */
function simModels(personas: string[], scenario: Scenario | undefined, config: LoupeConfig): Record<string, StandinSimModel> {
  if (!scenario) throw new UsageError("--sim: a simulated model follows a scenario's solution: give --scenario <file>");
  const plan = planOf(scenario);
  if (!plan)
    throw new UsageError(
      `${scenario.file}: scenario ${scenario.id} has no solution to follow: give it a \`solution:\` (tool calls and final_answer) or a script`,
    );
  const models = personas.map((p) => `${SIM_MODEL_PREFIX}${p.replace(/^sim:/i, '')}`);
  try {
    const found = resolvePersonas(models, personaDirs(config.sim.personasDir));
    return Object.fromEntries(Object.entries(found).map(([model, persona]) => [model, { persona, plan }]));
  } catch (e) {
    if (e instanceof UnknownPersonaError || e instanceof PersonaFileError) throw new UsageError(e.message);
    throw e;
  }
}

export function registerStandinCommand(program: Command, getConfig: () => LoupeConfig): void {
  program
    .command('standin')
    .description("Run the Ollama stand-in alone, replying from a scenario's scripted turns")
    .option('-s, --scenario <file>', 'scenario whose script and catalog to serve')
    .option('-p, --port <n>', 'port to listen on (0: any free port)', (v) => portNumber(v), 11434)
    .option('--host <addr>', 'address to bind', '127.0.0.1')
    .option('--loop', 'start the script again when it is exhausted')
    // the server's settings; each overrides the scenario's `standin:` key of the same meaning
    .option('--ollama-version <v>', 'the Ollama version to report and reproduce (e.g. 0.30.4)')
    .option(
      '--context-length <n>',
      'OLLAMA_CONTEXT_LENGTH: num_ctx of a request that sends none (default 4096)',
      positiveInt('--context-length'),
    )
    .option('--max-loaded-models <n>', 'OLLAMA_MAX_LOADED_MODELS (default 3)', positiveInt('--max-loaded-models'))
    .option('--gpu-vram-bytes <n>', 'the simulated GPU memory (default 24 GiB)', positiveInt('--gpu-vram-bytes'))
    .option('--time-scale <x>', 'multiply load times, keep_alive and decode pacing (0.01: 100x faster)', timeScale)
    .option('--cloud <state>', 'cloud models: signed_in, signed_out (401) or disabled (403)', cloudState)
    .option('--num-parallel <n>', 'OLLAMA_NUM_PARALLEL: slots of a model without its own parallel', positiveInt('--num-parallel'))
    .option(
      '--sim <persona>',
      "also serve sim:<persona>, a simulated model following the scenario's solution (or script); repeatable",
      (v: string, prev: string[] = []) => [...prev, v],
    )
    .action(async (opts: StandinFlags) => {
      const scenario = opts.scenario ? loadScenarios([opts.scenario])[0] : undefined;
      const config = opts.sim ? getConfig() : undefined;
      await lazy.standin().runStandinCli({
        ...standinServing(scenario, opts, config),
        port: opts.port,
        host: opts.host,
        log: (m: string) => process.stderr.write(`${m}\n`),
      });
    });
}

/**
 * What `loupe standin` serves for a scenario and its flags: the script, the catalog, simulated models
 * and the server's settings. Tests that need a scenario's stand-in in their own process take it from
 * here, so it serves what the command would.
 */
export function standinServing(
  scenario: Scenario | undefined,
  opts: Omit<StandinFlags, 'port' | 'host'>,
  config?: LoupeConfig,
): Pick<StandinCliOptions, 'script' | 'catalog' | 'sim' | 'server'> {
  const script = scenario ? { ...scenario.script, loop: Boolean(opts.loop) } : { turns: {}, loop: Boolean(opts.loop) };
  // as eval scales a persona trial's stand-in: LOUPE_SIM_TIME_SCALE times the scenario's own (a flag overrides both)
  const simTimeScale = config && (scenario?.standin?.timeScale ?? 1) * config.sim.timeScale;
  return {
    script,
    catalog: lazy.catalog().mergeCatalog(scenario?.catalog),
    sim: opts.sim && config ? simModels(opts.sim, scenario, config) : undefined,
    server: withoutUnset({
      ...scenario?.standin,
      version: opts.ollamaVersion ?? scenario?.standin?.version,
      defaultContextLength: opts.contextLength ?? scenario?.standin?.defaultContextLength,
      maxLoadedModels: opts.maxLoadedModels ?? scenario?.standin?.maxLoadedModels,
      gpuVramBytes: opts.gpuVramBytes ?? scenario?.standin?.gpuVramBytes,
      timeScale: opts.timeScale ?? simTimeScale ?? scenario?.standin?.timeScale,
      cloud: opts.cloud ?? scenario?.standin?.cloud,
      numParallel: opts.numParallel ?? scenario?.standin?.numParallel,
    }),
  };
}

/** Unset flags stay out, so the server's defaults apply. */
function withoutUnset<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
