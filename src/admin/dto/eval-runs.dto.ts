import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  Min,
} from 'class-validator';
import { MAX_SEED } from '../../eval/trials/trial-seed';
import { ToNumber } from './query-values';

export class StartEvalRunDto {
  @ApiProperty({ type: [String], description: 'files or directories, relative to the scenarios directory', example: ['approval'] })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  scenarios!: string[];

  @ApiPropertyOptional({ type: [String], description: "models to run every scenario against (default: each scenario's own)" })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  models?: string[];

  @ApiPropertyOptional({ type: [String], description: 'configuration axes, as `loupe eval --set`', example: ['profile=loupe,corvid'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  set?: string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 1, description: 'trials per scenario, model and configuration' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  trials?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 64, default: 1, description: 'trials run at once' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(64)
  concurrency?: number;

  @ApiPropertyOptional({ enum: ['auto', 'success'], default: 'auto' })
  @IsOptional()
  @IsIn(['auto', 'success'])
  judge?: 'auto' | 'success';

  @ApiPropertyOptional({
    minimum: 0,
    maximum: MAX_SEED,
    description:
      "the run seed, as `loupe eval --seed`: each trial's model requests carry a seed derived from it (default: drawn at random)",
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SEED)
  seed?: number;
}

export class CompareRunsQueryDto {
  @ApiProperty({ format: 'uuid', description: 'the baseline run' })
  @IsUUID()
  a!: string;

  @ApiProperty({ format: 'uuid', description: 'the run compared with it' })
  @IsUUID()
  b!: string;

  @ApiPropertyOptional({ default: 0.05, description: 'significance level, between 0 and 1' })
  @IsOptional()
  @ToNumber()
  @IsNumber()
  @Min(0.000001)
  @Max(0.999999)
  alpha?: number;

  @ApiPropertyOptional({
    description: "with profileB: only run a's trials under this loop profile (a = b compares two profiles of one run)",
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  profileA?: string;

  @ApiPropertyOptional({ description: "with profileA: only run b's trials under this loop profile" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  profileB?: string;
}
