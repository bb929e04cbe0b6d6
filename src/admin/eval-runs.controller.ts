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
  @ApiOperation({ summary: 'Compare run b with baseline a: per cell, model, configuration and run, with exact tests and verdicts' })
  compare(@Query() q: CompareRunsQueryDto): Promise<{ a: string; b: string; comparison: RunComparison }> {
    return this.runs.compare(q.a, q.b, q.alpha);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One run with its statistics, cells (scenario × model × configuration) and trials' })
  get(@Param() p: IdParamDto): Promise<RunDetail> {
    return this.runs.get(p.id);
  }
}
