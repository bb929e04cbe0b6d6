import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsInt, IsNotEmpty, IsOptional, IsString, Max, Min } from 'class-validator';
import { ToBoolean, ToInt, ToList } from './query-values';

export class DoctorQueryDto {
  @ApiPropertyOptional({ type: [String], description: 'models to check (repeatable); default: every model the host lists' })
  @IsOptional()
  @ToList()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  model?: string[];

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
