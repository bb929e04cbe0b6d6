import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { EvalRunEntity } from '../database/entities';
import { EvalRunsService, type RunDetail, type StartedRun } from '../eval/eval-runs.service';
import type { RunComparison } from '../eval/statistics/compare';
import type { Recorded } from '../journal/session-query.repository';
import { AdminAuthGuard } from './admin-auth.guard';
import { CompareRunsQueryDto, StartEvalRunDto } from './dto/eval-runs.dto';
import { IdParamDto, PageQueryDto } from './dto/id-param.dto';

@ApiTags('eval runs')
@ApiBearerAuth()
@Controller('api/eval-runs')
@UseGuards(AdminAuthGuard)
export class EvalRunsController {
  constructor(private readonly runs: EvalRunsService) {}

  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Start an eval run in the background: scenarios × models × configurations × trials, as `loupe eval`' })
  start(@Body() body: StartEvalRunDto): Promise<StartedRun> {
    return this.runs.start(body);
  }

  @Get()
  @ApiOperation({ summary: 'Eval runs, newest first' })
  list(@Query() q: PageQueryDto): Promise<Array<Recorded<EvalRunEntity>>> {
    return this.runs.list(q.limit ?? 50, q.offset ?? 0);
  }

  // declared before :id, which would otherwise take "compare"
  @Get('compare')
  @ApiOperation({
    summary: 'Compare run b with baseline a: per cell, model, configuration and run, with exact tests and corrected verdicts',
    description:
      "Cells match on scenario, model and configuration and on the scenario file's and tool definitions' hashes; others are only_in_a, only_in_b or changed, never a verdict. " +
      "Fisher's exact test for independent runs, McNemar's for trials paired by seed; pass rates are passed / (passed + failed), errored and unjudged trials counted apart on each side. " +
      'Each tested row has its p-value, its Holm-adjusted p (verdict and gate) and its Benjamini–Hochberg q over the family of every tested row; gate.fires when a regression survives Holm.',
  })
  compare(@Query() q: CompareRunsQueryDto): Promise<{ a: string; b: string; comparison: RunComparison }> {
    return this.runs.compare(q.a, q.b, q.alpha);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One run with its statistics, cells (scenario × model × configuration) and trials',
    description:
      "The run's `config.seed` is its run seed. Each trial's `metadata` holds its provenance: `scenarioHash`, `toolSchemaHash`, " +
      '`systemPromptHash`, `promptHash` (full-length sha256), `modelDigest`, `ollamaVersion`, `loupeRevision` (`+dirty` with ' +
      'uncommitted changes), `loupeDiffHash` (sha256 of `git diff HEAD` when dirty), `profile`, `settings` (the resolved loop ' +
      'settings), `requestOptions` (Ollama options as sent; "default" for a sampling option not sent) and `seed` (the seed its ' +
      'requests carried); a trial that errored before its backend was described has only `scenarioHash`, `loupeRevision`, `profile` and `seed`.',
  })
  get(@Param() p: IdParamDto): Promise<RunDetail> {
    return this.runs.get(p.id);
  }
}
