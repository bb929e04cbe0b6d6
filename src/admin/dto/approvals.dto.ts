import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

export class CallIdParamDto {
  @ApiProperty({ description: 'the tool call waiting for a decision (tool:approval_required callId)' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  callId!: string;
}

export class DecideApprovalDto {
  @ApiProperty({ description: 'true runs the call; false rejects it (the model is told why)' })
  @IsBoolean()
  approved!: boolean;

  @ApiPropertyOptional({ description: 'recorded with the decision and, on a rejection, shown to the model' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  reason?: string;
}
