import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsISO8601,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { TOOL_PERMISSIONS, type ToolPermission } from '../../approval/approval-policy';
import { LOOP_PROFILE_NAMES, type LoopProfileName } from '../../process/policies/loop-settings';
import { SESSION_VERDICTS, type SessionVerdictFilter } from '../../journal/session-query.repository';
import { TERMINATION_REASONS, type TerminationReason } from '../../journal/events/loop-vocabulary';
import { PageQueryDto } from './id-param.dto';
import { ToInt } from './query-values';

const TEXT_MAX = 1_000_000;

export class PermissionsDto {
  @ApiPropertyOptional({ enum: TOOL_PERMISSIONS, default: 'allow', description: 'for tools without their own rule' })
  @IsOptional()
  @IsIn(TOOL_PERMISSIONS)
  default?: ToolPermission;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...TOOL_PERMISSIONS] },
    example: { write_file: 'ask' },
  })
  @IsOptional()
  @IsObject()
  tools?: Record<string, ToolPermission>;
}

export class StartSessionDto {
  @ApiProperty({ description: 'the task', example: 'Read notes.txt and write its first line to summary.txt.' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(TEXT_MAX)
  prompt!: string;

  @ApiPropertyOptional({
    description: 'an Ollama model; default for a scripted session: the stand-in model llama3.1:8b',
    example: 'qwen3:8b',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  model?: string;

  @ApiPropertyOptional({ enum: LOOP_PROFILE_NAMES, default: 'loupe', description: 'the loop profile (README: Loop profiles)' })
  @IsOptional()
  @IsIn(LOOP_PROFILE_NAMES)
  profile?: LoopProfileName;

  @ApiPropertyOptional({ description: 'extra system instructions' })
  @IsOptional()
  @IsString()
  @MaxLength(TEXT_MAX)
  system?: string;

  @ApiPropertyOptional({ type: [String], description: 'tool allow list (default: the workspace tools; execute_command only when named)' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  tools?: string[];

  @ApiPropertyOptional({
    type: PermissionsDto,
    description: 'allow, deny or ask per tool; asks wait for a decision (POST /api/approvals/:callId)',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => PermissionsDto)
  permissions?: PermissionsDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'loop settings, as a scenario `config:` writes them (snake_case), e.g. {"max_tool_iterations": 10}',
  })
  @IsOptional()
  @IsObject()
  options?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'object', additionalProperties: { type: 'string' }, description: 'workspace files: relative name → text' })
  @IsOptional()
  @IsObject()
  files?: Record<string, string>;

  @ApiPropertyOptional({ type: [String], description: 'registered external MCP servers whose tools join the session' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  mcpServers?: string[];

  @ApiPropertyOptional({
    description:
      'scenario-style model turns ([{content}, {tool_calls: [{name, arguments}]}, …], or model → turns): the session runs against a private Ollama stand-in replaying them',
    type: 'array',
    items: { type: 'object' },
  })
  @IsOptional()
  script?: unknown;
}

export class ListSessionsQueryDto extends PageQueryDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  model?: string;

  @ApiPropertyOptional({ enum: ['running', 'finished'] })
  @IsOptional()
  @IsIn(['running', 'finished'])
  status?: string;

  @ApiPropertyOptional({ enum: TERMINATION_REASONS, description: 'why the session ended' })
  @IsOptional()
  @IsIn(TERMINATION_REASONS)
  termination?: TerminationReason;

  @ApiPropertyOptional({ format: 'uuid', description: 'sessions of this eval run' })
  @IsOptional()
  @IsUUID()
  run?: string;

  @ApiPropertyOptional({ description: 'started at or after (ISO 8601)' })
  @IsOptional()
  @IsISO8601()
  from?: string;

  @ApiPropertyOptional({ description: 'started before (ISO 8601)' })
  @IsOptional()
  @IsISO8601()
  to?: string;

  @ApiPropertyOptional({ description: "part of its trial's scenario id or title (case-insensitive)" })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  scenario?: string;

  @ApiPropertyOptional({ description: 'part of its prompt (case-insensitive)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  prompt?: string;

  @ApiPropertyOptional({ enum: LOOP_PROFILE_NAMES, description: 'the loop profile it ran under' })
  @IsOptional()
  @IsIn(LOOP_PROFILE_NAMES)
  profile?: LoopProfileName;

  @ApiPropertyOptional({ enum: SESSION_VERDICTS, description: "its trial's status; none: sessions that are no trial" })
  @IsOptional()
  @IsIn(SESSION_VERDICTS)
  verdict?: SessionVerdictFilter;

  @ApiPropertyOptional({ minimum: 0, description: 'at least this many iterations' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  minIterations?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'at most this many iterations' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  maxIterations?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'finished, and took at least this long (ms, start to finish)' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  minDurationMs?: number;

  @ApiPropertyOptional({ minimum: 0, description: 'finished, and took at most this long (ms, start to finish)' })
  @IsOptional()
  @ToInt()
  @IsInt()
  @Min(0)
  maxDurationMs?: number;
}

export class SendMessageDto {
  @ApiProperty({ description: 'queued and injected before the next iteration' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(TEXT_MAX)
  text!: string;
}

export class KillSessionDto {
  @ApiPropertyOptional({ description: 'recorded with the abort event' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  reason?: string;
}
