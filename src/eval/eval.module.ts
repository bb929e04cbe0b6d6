import { Module } from '@nestjs/common';
import { ProcessModule } from '../process/process.module';
import { ProviderModule } from '../provider/provider.module';
import { ToolsModule } from '../tools/tools.module';
import { EvalRepository } from './eval.repository';
import { RecordingRepository } from './recording/recording.repository';
import { RecordingTransfer } from './recording/recording-transfer.service';
import { QueuedRuns } from './queue/queued-runs.service';
import { RunStatusRepository } from './queue/run-status.repository';
import { TrialQueue } from './queue/trial-queue';
import { TrialWorker } from './queue/worker.service';
import { WorkersRepository } from './queue/workers.repository';
import { EvalRunsService } from './eval-runs.service';
import { RunViews } from './run-views';
import { ScenarioRunner } from './scenario-runner.service';
import { TrialRunner } from './trials/trial-runner.service';

@Module({
  imports: [ProcessModule, ProviderModule, ToolsModule],
  providers: [
    EvalRepository,
    RecordingRepository,
    RecordingTransfer,
    ScenarioRunner,
    TrialRunner,
    TrialQueue,
    WorkersRepository,
    QueuedRuns,
    TrialWorker,
    RunStatusRepository,
    EvalRunsService,
    RunViews,
  ],
  exports: [
    ScenarioRunner,
    EvalRepository,
    RecordingRepository,
    RecordingTransfer,
    TrialRunner,
    QueuedRuns,
    TrialWorker,
    RunStatusRepository,
    EvalRunsService,
    RunViews,
  ],
})
export class EvalModule {}
