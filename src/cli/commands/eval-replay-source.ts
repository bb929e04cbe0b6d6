// `--replay RUN|FILE`: the recorded run (a file is imported first, once) and what to replay of it —
// its scenarios (from the paths given, else the paths it ran), models, configurations and trials.
import * as fs from 'node:fs';
import type { INestApplicationContext } from '@nestjs/common';
import type { Configuration } from '../../eval/run-plan';
import type { StoredRunConfig } from '../../eval/run-resume';
import type { Scenario } from '../../eval/scenario/scenario';
import { loadScenarios } from '../../eval/scenario/scenario-loader';
import { lazy } from '../lazy';
import { UsageError } from './eval.command';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ReplaySource {
  runId: string;
  scenarios: Scenario[];
  /** seed: the recorded run's, so the requests match the recording's (null: it was recorded before seeds, and sent none) */
  options: { models?: string[]; trials: number; configurations: Configuration[]; paths?: string[]; seed: number | null };
}

export async function replaySource(app: INestApplicationContext, value: string, given?: Scenario[]): Promise<ReplaySource> {
  const { EvalRepository } = lazy.evalRepository();
  const { RecordingTransfer } = lazy.recordingTransfer();
  let runId = value;
  if (fs.existsSync(value) && fs.statSync(value).isFile()) {
    const imported = await app.get(RecordingTransfer).importFile(value);
    runId = imported.runId;
    process.stderr.write(
      `${value}: recorded run ${runId}${imported.imported ? `, imported (${imported.exchanges} exchanges)` : ', imported before'}\n`,
    );
  } else if (!UUID.test(value)) {
    throw new UsageError(`--replay ${value}: neither a recording file nor a run id`);
  }
  const source = await app.get(EvalRepository).getRun(runId);
  if (!source) throw new UsageError(`--replay ${value}: no eval run ${runId}`);
  if (!(await app.get(lazy.recordings().RecordingRepository).exchangeCount(runId)))
    throw new UsageError(`--replay ${value}: run ${runId} was not recorded (run it with --record)`);
  const options = source.options as { models?: string[] | null; scenarios?: string[]; paths?: string[] | null };
  const config = source.config as unknown as StoredRunConfig;
  const scenarios = given ?? loadScenarios(options.paths ?? ['scenarios']);
  const byId = new Map(scenarios.map((s) => [s.id, s]));
  const missing = (options.scenarios ?? []).filter((id) => !byId.has(id));
  if (missing.length) throw new UsageError(`--replay: the recorded run's scenario(s) ${missing.join(', ')} are not among those given`);
  const trials = await app.get(EvalRepository).trialsOf(runId);
  const selected = (options.scenarios ?? []).map((id) => byId.get(id)!);
  for (const s of selected) {
    if (trials.some((t) => t.scenarioId === s.id && t.scenarioHash !== s.hash))
      process.stderr.write(`warning: ${s.file} changed since run ${runId} was recorded; its requests may no longer match\n`);
  }
  return {
    runId,
    scenarios: selected,
    options: {
      models: options.models ?? undefined,
      trials: config.trialsPerCell ?? 1,
      configurations: config.configurations ?? [],
      paths: options.paths ?? undefined,
      seed: config.seed ?? null,
    },
  };
}
