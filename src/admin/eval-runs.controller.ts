import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiAcceptedResponse, ApiOkResponse } from '@nestjs/swagger';
import { EvalRunsService, type StartedRun } from '../eval/eval-runs.service';
import { InvalidRequestError } from '../common/request-errors';
import { RunViews, type RunListItem, type RunPage } from '../eval/run-views';
import type { RunComparison } from '../eval/statistics/compare';
import { AdminAuthGuard } from './admin-auth.guard';
import { CompareRunsQueryDto, StartEvalRunDto } from './dto/eval-runs.dto';
import { IdParamDto, PageQueryDto } from './dto/id-param.dto';
import { RunComparisonResultDto, RunDetailDto, StartedRunDto } from './dto/responses/eval-runs-responses.dto';
import { RunPageDto } from './dto/responses/run-views-responses.dto';
import { runDetailResponse, type RunDetailResponse } from './dto/responses/api-rows';
import { ApiErrors } from './http/api-errors.decorator';

@ApiTags('eval runs')
@ApiBearerAuth()
@Controller('api/eval-runs')
@UseGuards(AdminAuthGuard)
export class EvalRunsController {
  constructor(
    private readonly runs: EvalRunsService,
    private readonly views: RunViews,
  ) {}

  @Post()
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiAcceptedResponse({ type: StartedRunDto })
  @ApiOperation({ summary: 'Start an eval run in the background: scenarios × models × configurations × trials, as `loupe eval`' })
  start(@Body() body: StartEvalRunDto): Promise<StartedRun> {
    return this.runs.start(body);
  }

  @Get()
  @ApiOkResponse({ schema: { type: 'array', items: { $ref: '#/components/schemas/RunListItem' } } })
  @ApiOperation({
    summary: 'Eval runs, newest first',
    description:
      'Each stored run row with its list fields: `mode` (replay, live, scripted, simulated: live trials on the stand-in, or sim: personas, `sim:<persona>`), `models`, ' +
      '`configurations` (keys), `profiles` its trials ran under, `plannedTrials`, `finishedTrials`, `durationMs` (null while it runs) and ' +
      '`passRate`; a running run counts passed, failed, unjudged and errored from its trials so far.',
  })
  list(@Query() q: PageQueryDto): Promise<RunListItem[]> {
    return this.views.list(q.limit ?? 50, q.offset ?? 0);
  }

  // declared before :id, which would otherwise take "compare"
  @Get('compare')
  @ApiOkResponse({ type: RunComparisonResultDto })
  @ApiErrors({ 404: 'no eval run with that id' })
  @ApiOperation({
    summary: 'Compare run b with baseline a: per cell, model, configuration and run, with exact tests and corrected verdicts',
    description:
      "Cells match on scenario, model and configuration and on the scenario file's and tool definitions' hashes; others are only_in_a, only_in_b or changed, never a verdict. " +
      "Fisher's exact test for independent runs, McNemar's for trials paired by seed; pass rates are passed / (passed + failed), errored and unjudged trials counted apart on each side. " +
      'Each tested row has its p-value, its Holm-adjusted p (verdict and gate) and its Benjamini–Hochberg q over the family of every tested row; gate.fires when a regression survives Holm.',
  })
  async compare(
    @Query() q: CompareRunsQueryDto,
  ): Promise<{ a: string; b: string; profileA?: string; profileB?: string; comparison: RunComparison }> {
    if ((q.profileA === undefined) !== (q.profileB === undefined)) {
      const field = q.profileA === undefined ? 'profileA' : 'profileB';
      throw new InvalidRequestError([{ field, message: 'give profileA and profileB together' }], 'invalid comparison');
    }
    if (q.profileA === undefined || q.profileB === undefined) return this.runs.compare(q.a, q.b, q.alpha);
    const comparison = await this.views.compareProfiles(q.a, q.profileA, q.b, q.profileB, q.alpha);
    return { a: q.a, b: q.b, profileA: q.profileA, profileB: q.profileB, comparison };
  }

  @Get(':id/view')
  @ApiOkResponse({ type: RunPageDto })
  @ApiOperation({
    summary: "One run as the viewer's run page reads it: its list row, cells (once it finishes) and each trial as a matrix chip",
    description:
      "Trials carry their verdict, the failed checks with their messages, tokens, first-token and working time and termination; the live feed's `run:trial` sends the same shape.",
  })
  view(@Param() p: IdParamDto): Promise<RunPage> {
    return this.views.page(p.id);
  }

  @Get(':id')
  @ApiOkResponse({ type: RunDetailDto })
  @ApiOperation({
    summary: 'One run with its statistics, cells (scenario × model × configuration) and trials',
    description:
      "The run's `config.seed` is its run seed. Each trial's `metadata` holds its provenance: `scenarioHash`, `toolSchemaHash`, " +
      '`systemPromptHash`, `promptHash` (full-length sha256), `modelDigest`, `ollamaVersion`, `loupeRevision` (`+dirty` with ' +
      'uncommitted changes), `loupeDiffHash` (sha256 of `git diff HEAD` when dirty), `profile`, `settings` (the resolved loop ' +
      'settings), `requestOptions` (Ollama options as sent; "default" for a sampling option not sent) and `seed` (the seed its ' +
      'requests carried); a trial that errored before its backend was described has only `scenarioHash`, `loupeRevision`, `profile` and `seed`.',
  })
  async get(@Param() p: IdParamDto): Promise<RunDetailResponse> {
    return runDetailResponse(await this.runs.get(p.id));
  }
}
