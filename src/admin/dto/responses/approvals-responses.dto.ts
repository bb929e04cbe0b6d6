import { ApiProperty } from '@nestjs/swagger';
import type { PendingApproval } from '../../../approval/approval.service';

export class PendingApprovalDto implements PendingApproval {
  @ApiProperty({ format: 'uuid' }) sessionId!: string;
  @ApiProperty({ description: 'the tool call waiting (POST /api/approvals/{callId} decides it)' }) callId!: string;
  @ApiProperty({ description: 'the tool' }) name!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: "the call's arguments" }) args!: Record<string, unknown>;
  @ApiProperty({ description: "1-based place in the session's queue of calls waiting" }) queuePosition!: number;
  @ApiProperty() totalInQueue!: number;
  @ApiProperty({ type: String, format: 'date-time' }) requestedAt!: Date;
  @ApiProperty({ description: 'rejected on its own after this long' }) timeoutMs!: number;
}

export class DecidedApprovalDto extends PendingApprovalDto {
  @ApiProperty() approved!: boolean;
}
