import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { ToBoolean, ToList } from './query-values';

export class ModelNameDto {
  @ApiProperty({ example: 'qwen3:8b' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  model!: string;
}

export class ModelParamDto {
  @ApiProperty({ description: 'the model name, URL-encoded (qwen3%3A8b)', example: 'qwen3:8b' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  name!: string;
}

export class AvailableQueryDto {
  @ApiPropertyOptional({ description: 'ask the host now instead of using the 30 s cache' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean()
  refresh?: boolean;
}

export class CheckQueryDto {
  @ApiPropertyOptional({ type: [String], description: 'models to check (repeatable); default: every available model' })
  @IsOptional()
  @ToList()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  model?: string[];
}
