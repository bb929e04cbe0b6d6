import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { DoctorReport } from '../provider/ollama/doctor/doctor-types';
import { AdminAuthGuard } from './admin-auth.guard';
import { DoctorService } from './doctor.service';
import { DoctorQueryDto } from './dto/doctor.dto';
import { DoctorReportDto } from './dto/responses/doctor-responses.dto';

/** `loupe doctor` over HTTP: the report is the CLI's --json. */
@ApiTags('doctor')
@ApiBearerAuth()
@Controller('api/doctor')
@UseGuards(AdminAuthGuard)
export class DoctorController {
  constructor(private readonly doctor: DoctorService) {}

  @Get()
  @ApiOperation({
    summary:
      'Check OLLAMA_HOST (or a stand-in started for the check when unset): version; per model capabilities, context length, parameters, quantisation, tool mode, weight against the slot limit, num_ctx fit and a timed one-turn probe',
  })
  @ApiOkResponse({
    type: DoctorReportDto,
    description:
      '{host, standin, reachable, version, slotLimit, numCtx, findings, models: [{model, …, toolMode, slotWeight, probe, findings}], level}; each finding is {check, level: ok|warn|fail, message}. An unreachable host is 200 with reachable false and level fail.',
  })
  check(@Query() q: DoctorQueryDto): Promise<DoctorReport> {
    return this.doctor.check({ models: q.model, probe: q.probe, numCtx: q.numCtx });
  }
}
