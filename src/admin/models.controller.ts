import { Body, Controller, Delete, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiAcceptedResponse, ApiOkResponse } from '@nestjs/swagger';
import { ModelsService, type AvailableModels, type ModelCheck } from '../provider/models.service';
import type { ModelDiagnosis } from '../provider/ollama/model-diagnostics';
import type { ModelDetail, RunningModel } from '../provider/ollama/ollama-models';
import type { ModelPullStatus } from '../provider/ollama/pull-tracker';
import { AdminAuthGuard } from './admin-auth.guard';
import { AvailableQueryDto, CheckQueryDto, ModelNameDto, ModelParamDto } from './dto/models.dto';
import {
  AvailableModelsDto,
  ModelCheckDto,
  ModelDeletedDto,
  ModelDetailWithDiagnosisDto,
  ModelPullStatusDto,
  RunningModelDto,
} from './dto/responses/models-responses.dto';
import { ApiErrors } from './http/api-errors.decorator';

/** Model management on the configured Ollama (ollama-provider.spec.md); pulls and deletes are journaled. */
@ApiTags('models')
@ApiBearerAuth()
@Controller('api/models')
@UseGuards(AdminAuthGuard)
export class ModelsController {
  constructor(private readonly models: ModelsService) {}

  @Get('available')
  @ApiOkResponse({ type: AvailableModelsDto })
  @ApiErrors({ 503: 'the Ollama host cannot be reached' })
  @ApiOperation({ summary: 'What the configured Ollama can serve: cached 30 s, not probed per call (?refresh=true asks now)' })
  available(@Query() q: AvailableQueryDto): Promise<AvailableModels> {
    return this.models.available(q.refresh);
  }

  @Get('check')
  @ApiOkResponse({ type: ModelCheckDto })
  @ApiOperation({ summary: 'Per-model diagnostics: installed, host, tool calling mode and why, thinking, slot weight, problems' })
  check(@Query() q: CheckQueryDto): Promise<ModelCheck> {
    return this.models.check(q.model);
  }

  @Get('running')
  @ApiOkResponse({ type: [RunningModelDto] })
  @ApiErrors({ 503: 'the Ollama host cannot be reached' })
  @ApiOperation({ summary: 'Models loaded now (/api/ps), with VRAM use' })
  running(): Promise<RunningModel[]> {
    return this.models.running();
  }

  @Get('pulls')
  @ApiOkResponse({ type: [ModelPullStatusDto] })
  @ApiOperation({ summary: 'Pulls in progress, and those finished in the last minute, with their progress' })
  pulls(): ModelPullStatus[] {
    return this.models.activePulls();
  }

  @Post('pull')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiAcceptedResponse({ type: ModelPullStatusDto })
  @ApiOperation({ summary: 'Pull a model in the background; progress at GET /api/models/pulls and as model_pull events' })
  pull(@Body() body: ModelNameDto): ModelPullStatus {
    return this.models.startPull(body.model);
  }

  @Get(':name')
  @ApiOkResponse({ type: ModelDetailWithDiagnosisDto })
  @ApiErrors({ 503: 'the Ollama host cannot be reached' })
  @ApiOperation({ summary: 'One installed model: details, capabilities and its diagnosis' })
  details(@Param() p: ModelParamDto): Promise<ModelDetail & { diagnosis: ModelDiagnosis }> {
    return this.models.details(p.name);
  }

  @Delete(':name')
  @ApiOkResponse({ type: ModelDeletedDto })
  @ApiErrors({ 503: 'the Ollama host cannot be reached' })
  @ApiOperation({ summary: 'Delete a model (recorded as model_deleted)' })
  remove(@Param() p: ModelParamDto): Promise<{ deleted: string }> {
    return this.models.delete(p.name);
  }
}
