import { Body, Controller, Get, HttpCode, HttpStatus, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import { ApprovalService, type PendingApproval } from '../approval/approval.service';
import { AdminAuthGuard } from './admin-auth.guard';
import { CallIdParamDto, DecideApprovalDto } from './dto/approvals.dto';
import { ApprovalsQueryDto } from './dto/approvals-query.dto';
import { DecidedApprovalDto, PendingApprovalDto } from './dto/responses/approvals-responses.dto';

/** The approval queue (mcp-agent-technical-spec.md §5): calls waiting for a person, and their decisions. */
@ApiTags('approvals')
@ApiBearerAuth()
@Controller('api/approvals')
@UseGuards(AdminAuthGuard)
export class ApprovalsController {
  constructor(private readonly approvals: ApprovalService) {}

  @Get()
  @ApiOkResponse({ type: [PendingApprovalDto] })
  @ApiOperation({ summary: 'Tool calls waiting for a decision, across sessions (or of one)' })
  pending(@Query() q: ApprovalsQueryDto): PendingApproval[] {
    return this.approvals.pending(q.session);
  }

  @Post(':callId')
  @HttpCode(HttpStatus.OK)
  @ApiOkResponse({ type: DecidedApprovalDto })
  @ApiOperation({ summary: 'Approve or reject a waiting call; an unknown callId is 404 (and recorded as approval_unknown)' })
  decide(@Param() p: CallIdParamDto, @Body() body: DecideApprovalDto): PendingApproval & { approved: boolean } {
    return this.approvals.decideByPerson(p.callId, body.approved, body.reason);
  }
}
