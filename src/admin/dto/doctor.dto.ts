import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';
import { CheckQueryDto } from './models.dto';
import { ToBoolean, ToInt } from './query-values';

/** `model` as the models check takes it (repeatable; default: every model the host lists), plus the probe's options */
export class DoctorQueryDto extends CheckQueryDto {
  @ApiPropertyOptional({ description: 'send a one-turn chat to each model and time it (default true; false skips it)' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  probe?: boolean;

  @ApiPropertyOptional({ description: "also check this num_ctx against each model's context length (and probe with it)" })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(256)
  @Max(16_777_216)
  numCtx?: number;
}
