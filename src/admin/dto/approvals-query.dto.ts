import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';

export class ApprovalsQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: "only this session's calls" })
  @IsOptional()
  @IsUUID()
  session?: string;
}
