import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiAcceptedResponse, ApiCreatedResponse, ApiOkResponse } from '@nestjs/swagger';
import type { StartedSession } from '../sessions/session-launcher.service';
import { SessionLauncher } from '../sessions/session-launcher.service';
import { SessionsService } from '../sessions/sessions.service';
import { AdminAuthGuard } from './admin-auth.guard';
import { IdParamDto } from './dto/id-param.dto';
import { KillSessionDto, ListSessionsQueryDto, SendMessageDto, StartSessionDto } from './dto/sessions.dto';
import {
  KilledSessionDto,
  MessageQueuedDto,
  SessionPageDto,
  SessionViewDto,
  StartedSessionDto,
} from './dto/responses/sessions-responses.dto';
import { sessionPageResponse, sessionViewResponse, type SessionPageResponse, type SessionViewResponse } from './dto/responses/api-rows';
import { ApiErrors } from './http/api-errors.decorator';

@ApiTags('sessions')
@ApiBearerAuth()
@Controller('api/sessions')
@UseGuards(AdminAuthGuard)
export class SessionsController {
  constructor(
    private readonly launcher: SessionLauncher,
    private readonly sessions: SessionsService,
  ) {}

  @Post()
  @ApiCreatedResponse({ type: StartedSessionDto })
  @ApiErrors({ 404: 'a named MCP server is not registered', 503: 'the Ollama host cannot be reached' })
  @ApiOperation({ summary: 'Start a session (runs in the background; watch it over the WebSocket or GET it)' })
  start(@Body() body: StartSessionDto): Promise<StartedSession> {
    return this.launcher.start(body);
  }

  @Get()
  @ApiOkResponse({ type: SessionPageDto })
  @ApiOperation({
    summary:
      'Sessions, newest first, with filters and paging; each with its trial (scenario, run, verdict), profile, duration and the start of its prompt',
  })
  async list(@Query() q: ListSessionsQueryDto): Promise<SessionPageResponse> {
    const page = await this.sessions.list({
      model: q.model,
      status: q.status,
      terminationReason: q.termination,
      runId: q.run,
      startedFrom: q.from ? new Date(q.from) : undefined,
      startedTo: q.to ? new Date(q.to) : undefined,
      scenario: q.scenario,
      prompt: q.prompt,
      profile: q.profile,
      verdict: q.verdict,
      minIterations: q.minIterations,
      maxIterations: q.maxIterations,
      minDurationMs: q.minDurationMs,
      maxDurationMs: q.maxDurationMs,
      limit: q.limit ?? 50,
      offset: q.offset ?? 0,
    });
    return sessionPageResponse(page);
  }

  @Get(':id')
  @ApiOkResponse({ type: SessionViewDto })
  @ApiOperation({
    summary:
      'One session: messages, iterations (each with its trace link when LOUPE_TRACE_URL_TEMPLATE is set), tool calls, events, pending approvals, and its trial (verdict, checks, run cell) when it ran for one',
  })
  async get(@Param() p: IdParamDto): Promise<SessionViewResponse> {
    return sessionViewResponse(await this.sessions.get(p.id));
  }

  @Post(':id/messages')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiAcceptedResponse({ type: MessageQueuedDto })
  @ApiErrors({ 409: 'not running in this Loupe process (finished, or run by another one)' })
  @ApiOperation({ summary: 'Send a message into a running session: queued (position returned), injected before the next iteration' })
  send(@Param() p: IdParamDto, @Body() body: SendMessageDto): Promise<{ queued: true; position: number }> {
    return this.sessions.sendMessage(p.id, body.text);
  }

  @Post(':id/kill')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: KilledSessionDto })
  @ApiErrors({ 409: 'not running in this Loupe process (finished, or run by another one)' })
  @ApiOperation({ summary: 'Kill a running session (its records are closed as aborted)' })
  kill(@Param() p: IdParamDto, @Body() body: KillSessionDto): Promise<{ sessionId: string; terminationReason: string | null }> {
    return this.sessions.kill(p.id, body.reason);
  }
}
