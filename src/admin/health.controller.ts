import { Controller, Get, HttpStatus, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { AdminAuthGuard } from './admin-auth.guard';
import { ReadinessService, type Liveness, type Readiness } from './readiness.service';
import { LivenessDto, ReadinessDto } from './dto/responses/health.dto';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessService) {}

  @Get('health')
  @ApiOkResponse({ type: LivenessDto })
  @ApiOperation({ summary: 'Liveness (no token): the process answers, and whether Postgres does' })
  health(): Promise<Liveness> {
    return this.readiness.liveness();
  }

  @Get('ready')
  @ApiOkResponse({ type: ReadinessDto, description: 'ready' })
  @ApiServiceUnavailableResponse({ type: ReadinessDto, description: 'not ready: what is down' })
  @ApiBearerAuth()
  @UseGuards(AdminAuthGuard)
  @ApiOperation({ summary: 'Readiness: Postgres and the configured Ollama answer (200), else 503 with what is down' })
  async ready(@Res({ passthrough: true }) res: { status(code: number): void }): Promise<Readiness> {
    const r = await this.readiness.readiness();
    if (!r.ready) res.status(HttpStatus.SERVICE_UNAVAILABLE);
    return r;
  }
}
