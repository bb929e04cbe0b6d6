// `loupe eval export` and `import`: a recorded run out of Postgres into a file, and back in on
// another machine (through the journal, like everything Loupe writes).
import { Injectable } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Writable } from 'node:stream';
import { parse, stringify } from 'yaml';
import type { EvalCellRow, EvalExchangeRow, EvalRunRow, EvalTrialRow } from '../../journal/journal-entry';
import { JournalService } from '../../journal/journal.service';
import { EvalRepository } from '../eval.repository';
import { readRecording, RecordingFileError, writeRecording, type RecordingLine } from './recording-file';
import { RecordingRepository } from './recording.repository';
import { exportedFileName, rebaseMcpPaths, scenarioFromRecording } from './scenario-export';
import { isFinal } from '../trials/trial-rows';

@Injectable()
export class RecordingTransfer {
  constructor(
    private readonly recordings: RecordingRepository,
    private readonly runs: EvalRepository,
    private readonly journal: JournalService,
  ) {}

  /** Writes the run to `out`; the number of exchanges written. */
  async exportRun(runId: string, out: Writable): Promise<number> {
    if (!(await this.runs.getRun(runId))) throw new RecordingFileError(`no eval run ${runId}`);
    if (!(await this.recordings.exchangeCount(runId))) throw new RecordingFileError(`run ${runId} was not recorded (run it with --record)`);
    const recordings = this.recordings;
    async function* lines(): AsyncGenerator<RecordingLine> {
      for await (const r of recordings.exportRows(runId)) yield r as unknown as RecordingLine;
    }
    return writeRecording(lines(), out);
  }

  /**
   * One scripted scenario per finished trial of the run, written to `dir` (made if missing); the
   * files written. The scenario files the run ran must be readable from here (its paths are relative).
   */
  async exportScenarios(runId: string, dir: string, cwd = process.cwd()): Promise<string[]> {
    if (!(await this.recordings.exchangeCount(runId))) throw new RecordingFileError(`run ${runId} was not recorded (run it with --record)`);
    const trials = (await this.runs.trialsOf(runId)).filter(isFinal);
    const sources = new Map<string, Record<string, unknown>>();
    fs.mkdirSync(path.resolve(cwd, dir), { recursive: true });
    const written: string[] = [];
    for (const t of trials) {
      const file = path.resolve(cwd, t.scenarioFile);
      if (!sources.has(file)) {
        if (!fs.existsSync(file))
          throw new RecordingFileError(
            `${t.scenarioFile}: the scenario of ${t.scenarioId} is not here (export from the checkout that ran it)`,
          );
        sources.set(
          file,
          rebaseMcpPaths(parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>, path.dirname(file), path.resolve(cwd, dir)),
        );
      }
      const recorded = await this.recordings.recordedTrial(runId, t);
      if (!recorded) continue;
      const settings = (t.metadata.settings ?? {}) as { profile?: string };
      const outcome = (t.outcome ?? {}) as { terminationReason?: string | null; pathologies?: Record<string, number> };
      const exported = {
        scenarioId: t.scenarioId,
        title: t.scenarioTitle,
        model: t.model,
        trialIndex: t.trialIndex,
        configKey: t.configKey,
        config: t.config,
        profile: settings.profile ?? 'loupe',
        terminationReason: outcome.terminationReason ?? null,
        iterations: t.iterations,
        pathologies: outcome.pathologies ?? {},
        exchanges: recorded.exchanges,
      };
      const doc = scenarioFromRecording(sources.get(file)!, exported);
      const out = path.join(path.resolve(cwd, dir), exportedFileName(exported));
      const header = `# Recorded by Loupe: run ${runId}, trial ${t.id} (${t.scenarioId}, ${t.model} #${t.trialIndex}${t.configKey ? `, ${t.configKey}` : ''}).\n# The script is what the model answered; the expectations pin what the loop did with it.\n`;
      fs.writeFileSync(out, header + stringify(doc, { lineWidth: 0 }));
      written.push(out);
    }
    return written;
  }

  /** Imports a recording file; the run's id (a run already imported is not imported twice). */
  async importFile(file: string): Promise<{ runId: string; imported: boolean; exchanges: number }> {
    let runId: string | undefined;
    let exchanges = 0;
    for await (const line of readRecording(file)) {
      if (line.type === 'run') {
        if (runId) throw new RecordingFileError(`${file}: more than one run`);
        runId = line.row.id;
        if (await this.runs.getRun(runId)) {
          if (await this.recordings.exchangeCount(runId))
            return { runId, imported: false, exchanges: await this.recordings.exchangeCount(runId) };
          throw new RecordingFileError(`${file}: run ${runId} exists here already, without a recording`);
        }
        // a run exported while it ran is not running here
        const status: EvalRunRow['status'] =
          line.row.status === 'running' || line.row.status === 'queued' ? 'interrupted' : line.row.status;
        this.journal.append({ kind: 'eval_run', row: { ...line.row, status } });
        continue;
      }
      if (!runId) throw new RecordingFileError(`${file}: the run line must come before its trials`);
      if (line.row.runId !== runId) throw new RecordingFileError(`${file}: a ${line.type} of another run (${line.row.runId})`);
      if (line.type === 'trial') this.journal.append({ kind: 'eval_trial', row: importedTrial(line.row) });
      else if (line.type === 'cell') this.journal.append({ kind: 'eval_cell', row: line.row as EvalCellRow });
      else {
        exchanges++;
        this.journal.append({ kind: 'eval_exchange', row: line.row as EvalExchangeRow });
      }
    }
    if (!runId) throw new RecordingFileError(`${file}: no run in it`);
    await this.journal.flush();
    return { runId, imported: true, exchanges };
  }
}

/** The sessions did not come along: the trial keeps its session id in its metadata (as recorded). */
function importedTrial(row: EvalTrialRow): EvalTrialRow {
  return { ...row, sessionId: null, attempt: row.attempt ?? 1, replacedBy: row.replacedBy ?? null, workerId: null };
}
