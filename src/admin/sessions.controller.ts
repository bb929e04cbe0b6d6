import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { SessionPage } from '../journal/session-query.repository';
import type { StartedSession } from '../sessions/session-launcher.service';
import { SessionLauncher } from '../sessions/session-launcher.service';
import { SessionsService, type SessionView } from '../sessions/sessions.service';
import { AdminAuthGuard } from './admin-auth.guard';
import { IdParamDto } from './dto/id-param.dto';
import { KillSessionDto, ListSessionsQueryDto, SendMessageDto, StartSessionDto } from './dto/sessions.dto';

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
  @ApiOperation({ summary: 'Start a session (runs in the background; watch it over the WebSocket or GET it)' })
  start(@Body() body: StartSessionDto): Promise<StartedSession> {
    return this.launcher.start(body);
  }

  @Get()
  @ApiOperation({ summary: 'Sessions, newest first, with filters and paging' })
  list(@Query() q: ListSessionsQueryDto): Promise<SessionPage> {
    return this.sessions.list({
      model: q.model,
      status: q.status,
      terminationReason: q.termination,
      runId: q.run,
      startedFrom: q.from ? new Date(q.from) : undefined,
      startedTo: q.to ? new Date(q.to) : undefined,
      limit: q.limit ?? 50,
      offset: q.offset ?? 0,
    });
  }

  @Get(':id')
  @ApiOperation({ summary: 'One session: messages, iterations, tool calls, events, pending approvals' })
  get(@Param() p: IdParamDto): Promise<SessionView> {
    return this.sessions.get(p.id);
  }

  @Post(':id/messages')
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({ summary: 'Send a message into a running session: queued (position returned), injected before the next iteration' })
  send(@Param() p: IdParamDto, @Body() body: SendMessageDto): Promise<{ queued: true; position: number }> {
    return this.sessions.sendMessage(p.id, body.text);
  }

  @Post(':id/kill')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Kill a running session (its records are closed as aborted)' })
  kill(@Param() p: IdParamDto, @Body() body: KillSessionDto): Promise<{ sessionId: string; terminationReason: string | null }> {
    return this.sessions.kill(p.id, body.reason);
  }
}
