import { Module } from '@nestjs/common';
import { ProcessModule } from '../process/process.module';
import { ProviderModule } from '../provider/provider.module';
import { ToolsModule } from '../tools/tools.module';
import { EvalRepository } from './eval.repository';
import { EvalRunsService } from './eval-runs.service';
import { ScenarioRunner } from './scenario-runner.service';
import { TrialRunner } from './trials/trial-runner.service';

@Module({
  imports: [ProcessModule, ProviderModule, ToolsModule],
  providers: [EvalRepository, ScenarioRunner, TrialRunner, EvalRunsService],
  exports: [ScenarioRunner, EvalRepository, EvalRunsService],
})
export class EvalModule {}
