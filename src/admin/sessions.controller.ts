import { Controller, Get, NotFoundException, Param, ParseIntPipe, ParseUUIDPipe, Query, UseGuards, DefaultValuePipe } from '@nestjs/common';
import { SessionQueryRepository, type Recorded, type SessionDetail } from '../journal/session-query.repository';
import type { SessionEntity } from '../database/entities';
import { AdminAuthGuard } from './admin-auth.guard';

@Controller('api/sessions')
@UseGuards(AdminAuthGuard)
export class SessionsController {
  constructor(private readonly sessions: SessionQueryRepository) {}

  @Get()
  list(@Query('limit', new DefaultValuePipe(50), ParseIntPipe) limit: number): Promise<Array<Recorded<SessionEntity>>> {
    return this.sessions.listSessions(Math.min(Math.max(limit, 1), 500));
  }

  @Get(':id')
  async show(@Param('id', ParseUUIDPipe) id: string): Promise<SessionDetail> {
    const detail = await this.sessions.getSessionDetail(id);
    if (!detail) throw new NotFoundException(`no session ${id}`);
    return detail;
  }
}
