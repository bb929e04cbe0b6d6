// Eval runs for the API: started in the background (the answer carries the run id once it is recorded), listed,
// read back with their cells, statistics and trials, and compared. A run is the same `loupe eval`
// run: the same runner, records and statistics.
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LOUPE_CONFIG } from '../config/config.module';
import type { LoupeConfig } from '../config/loupe-config';
import { InvalidRequestError, NotFoundError } from '../common/request-errors';
import { JournalService } from '../journal/journal.service';
import type { Recorded } from '../journal/session-query.repository';
import type { EvalCellEntity, EvalRunEntity, EvalTrialEntity } from '../database/entities';
import { problemAsFieldError, runConfigurations, scenarioPaths, type EvalRunRequest } from './eval-run-request';
import { EvalRepository } from './eval.repository';
import { ScenarioRunner } from './scenario-runner.service';
import { ScenarioLoadError } from './scenario/scenario-errors';
import { loadScenarios } from './scenario/scenario-loader';
import type { Scenario } from './scenario/scenario';
import { standinModelProblems } from './standin-model-check';
import { simRunRefusal } from './sim-models';
import { compareRuns, type RunComparison } from './statistics/compare';

const SHUTDOWN_WAIT_MS = 15_000;

export interface StartedRun {
  runId: string;
  status: 'running';
  scenarios: number;
}

export interface RunDetail {
  run: Recorded<EvalRunEntity>;
  cells: Array<Recorded<EvalCellEntity>>;
  trials: Array<Recorded<EvalTrialEntity>>;
}

@Injectable()
export class EvalRunsService implements OnModuleDestroy {
  private readonly logger = new Logger('Eval');
  private readonly inProgress = new Map<string, Promise<void>>();

  constructor(
    @Inject(LOUPE_CONFIG) private readonly config: LoupeConfig,
    private readonly runner: ScenarioRunner,
    private readonly runs: EvalRepository,
    private readonly journal: JournalService,
  ) {}

  /** Answers once the run is recorded (or has failed at once), so the id it carries can be read back at once. */
  async start(request: EvalRunRequest): Promise<StartedRun> {
    const root = this.config.api.scenariosDir;
    const { paths, errors } = scenarioPaths(request.scenarios, root);
    const axes = runConfigurations(request.set);
    errors.push(...axes.errors);
    if (errors.length) throw new InvalidRequestError(errors, 'invalid eval run');
    const scenarios = this.load(paths, request.models);
    const runId = randomUUID();
    let announce!: () => void;
    const announced = new Promise<void>((resolve) => (announce = resolve));
    const work = this.runner
      .run(scenarios, {
        runId,
        onRunStarted: () => announce(),
        models: request.models,
        trials: request.trials,
        concurrency: request.concurrency,
        configurations: axes.configurations,
        judge: request.judge,
        seed: request.seed,
      })
      .then(
        (r) => this.logger.log(`eval run ${runId}: ${r.passed} passed, ${r.failed} failed, ${r.errored} errored`),
        (e: unknown) => this.logger.error(`eval run ${runId} failed: ${(e as Error)?.stack ?? e}`),
      )
      .finally(() => this.inProgress.delete(runId));
    this.inProgress.set(runId, work);
    await Promise.race([announced, work]);
    return { runId, status: 'running', scenarios: scenarios.length };
  }

  list(limit: number, offset: number): Promise<Array<Recorded<EvalRunEntity>>> {
    return this.runs.listRuns(limit, offset);
  }

  async get(id: string): Promise<RunDetail> {
    const run = await this.recordedRun(id);
    const [cells, trials] = await Promise.all([this.runs.cellsOf(id), this.runs.trialsOf(id)]);
    return { run, cells, trials };
  }

  /**
   * `a` is the baseline; per cell, model, configuration and the whole run: Fisher's exact test (McNemar's
   * for trials paired by seed) over matched cells, Holm- and BH-corrected. Runs with no cell in common
   * answer with `matchedCells: 0` and no verdict rather than an error, as an empty run does.
   */
  async compare(a: string, b: string, alpha?: number): Promise<{ a: string; b: string; comparison: RunComparison }> {
    for (const id of new Set([a, b])) await this.recordedRun(id);
    const [outcomesA, outcomesB] = await Promise.all([this.runs.outcomesOf(a), this.runs.outcomesOf(b)]);
    return { a, b, comparison: compareRuns(outcomesA, outcomesB, { alpha }) };
  }

  async onModuleDestroy(): Promise<void> {
    if (!this.inProgress.size) return;
    this.logger.warn(`waiting for ${this.inProgress.size} eval run(s) to stop`);
    await Promise.race([Promise.allSettled(this.inProgress.values()), new Promise((r) => setTimeout(r, SHUTDOWN_WAIT_MS).unref())]);
  }

  private async recordedRun(id: string): Promise<Recorded<EvalRunEntity>> {
    // its rows may still be on their way to Postgres
    const run = await this.journal.readBack(() => this.runs.getRun(id));
    if (!run) throw new NotFoundError(`no eval run ${id}`);
    return run;
  }

  private load(paths: string[], models?: string[]): Scenario[] {
    try {
      const root = this.config.api.scenariosDir;
      // files found in a named directory may be links too: each must resolve inside the directory
      const scenarios = loadScenarios(paths, root, { root });
      const problems = this.config.ollama.host ? [] : standinModelProblems(scenarios, models);
      if (problems.length) throw new ScenarioLoadError(problems);
      const refused = simRunRefusal(scenarios, models, this.config);
      const fields = refused.map((message) => ({ field: 'models', message }));
      if (fields.length) throw new InvalidRequestError(fields, 'invalid eval run');
      return scenarios;
    } catch (e) {
      if (e instanceof ScenarioLoadError) throw new InvalidRequestError(e.problems.map(problemAsFieldError), 'invalid eval run');
      throw e;
    }
  }
}
