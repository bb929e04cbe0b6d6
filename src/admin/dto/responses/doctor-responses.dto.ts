import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import type {
  CloudAccess,
  DoctorReport,
  Finding,
  FindingLevel,
  ModelReport,
  NumCtxSetting,
  ProbeLatency,
  ProbeResult,
} from '../../../provider/ollama/doctor/doctor-types';
import { ToolCallingDto } from './models-responses.dto';

const LEVELS = ['ok', 'warn', 'fail'] as const satisfies readonly FindingLevel[];

export class FindingDto implements Finding {
  @ApiProperty({ description: 'what was checked: server, capabilities, tool_mode, num_ctx, slots, probe' }) check!: string;
  @ApiProperty({ enum: LEVELS }) level!: FindingLevel;
  @ApiProperty() message!: string;
}

class NumCtxSettingDto implements NumCtxSetting {
  @ApiProperty({ description: 'default, OLLAMA_NUM_CTX or --num-ctx' }) source!: string;
  @ApiProperty() value!: number;
}

class SlotLimitDto {
  @ApiProperty() maxWeight!: number;
  @ApiProperty({ enum: ['config', 'gpu', 'default'] }) source!: 'config' | 'gpu' | 'default';
}

export class ProbeLatencyDto implements ProbeLatency {
  @ApiProperty({ description: 'request sent → first streamed chunk' }) ttfbMs!: number;
  @ApiProperty({ description: 'request sent → final chunk' }) wallMs!: number;
  @ApiProperty({ type: Number, nullable: true }) loadMs!: number | null;
  @ApiProperty({ type: Number, nullable: true }) promptEvalMs!: number | null;
  @ApiProperty({ type: Number, nullable: true }) evalMs!: number | null;
  @ApiProperty({ type: Number, nullable: true }) totalMs!: number | null;
}

export class ProbeOkDto {
  @ApiProperty({ enum: [true] }) ok!: true;
  @ApiProperty({ type: ProbeLatencyDto }) latency!: ProbeLatencyDto;
  @ApiProperty({ type: Number, nullable: true }) promptEvalCount!: number | null;
  @ApiProperty({ type: Number, nullable: true }) evalCount!: number | null;
  @ApiProperty({ type: String, nullable: true }) doneReason!: string | null;
}

export class ProbeFailedDto {
  @ApiProperty({ enum: [false] }) ok!: false;
  @ApiProperty() error!: string;
}

export class CloudOkDto {
  @ApiProperty({ enum: [true] }) ok!: true;
}

export class CloudFailedDto {
  @ApiProperty({ enum: [false] }) ok!: false;
  @ApiProperty({ type: Number, nullable: true }) status!: number | null;
  @ApiProperty() error!: string;
  @ApiPropertyOptional({ description: 'where to sign the host in to ollama.com' }) signinUrl?: string;
}

// the unions as the TypeScript types declare them: each branch a DTO of its own
type Check<A, B> = A extends B ? true : never;
const unions: [Check<ProbeOkDto | ProbeFailedDto, ProbeResult>, Check<CloudOkDto | CloudFailedDto, CloudAccess>] = [true, true];
void unions;

export class ModelReportDto implements ModelReport {
  @ApiProperty() model!: string;
  @ApiProperty({ type: Number, nullable: true }) sizeBytes!: number | null;
  @ApiProperty({ type: String, nullable: true }) parameterSize!: string | null;
  @ApiProperty({ type: String, nullable: true }) quantization!: string | null;
  @ApiProperty({ type: String, nullable: true }) family!: string | null;
  @ApiProperty({ type: [String], nullable: true }) capabilities!: string[] | null;
  @ApiProperty({ type: Number, nullable: true }) contextLength!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'why /api/show gave nothing, when it failed' }) showError!: string | null;
  @ApiPropertyOptional({
    oneOf: [{ $ref: getSchemaPath(CloudOkDto) }, { $ref: getSchemaPath(CloudFailedDto) }],
    nullable: true,
    description: 'cloud models only: the sign-in check (null: skipped)',
  })
  cloud?: CloudAccess | null;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'the context /api/ps shows it loaded with' })
  loadedContext?: number | null;
  @ApiProperty({ type: ToolCallingDto }) toolMode!: ToolCallingDto;
  @ApiProperty() slotWeight!: number;
  @ApiProperty({
    oneOf: [{ $ref: getSchemaPath(ProbeOkDto) }, { $ref: getSchemaPath(ProbeFailedDto) }],
    nullable: true,
    description: 'null: skipped (probe=false, or a model that cannot chat)',
  })
  probe!: ProbeResult | null;
  @ApiProperty({ type: [FindingDto] }) findings!: FindingDto[];
}

export class DoctorReportDto implements DoctorReport {
  @ApiProperty() host!: string;
  @ApiProperty({ description: 'OLLAMA_HOST was unset and a stand-in was started for the check' }) standin!: boolean;
  @ApiProperty() reachable!: boolean;
  @ApiProperty({ type: String, nullable: true }) version!: string | null;
  @ApiProperty({ type: SlotLimitDto }) slotLimit!: SlotLimitDto;
  @ApiProperty({ type: [NumCtxSettingDto] }) numCtx!: NumCtxSettingDto[];
  @ApiProperty({ type: [FindingDto] }) findings!: FindingDto[];
  @ApiProperty({ type: [ModelReportDto] }) models!: ModelReportDto[];
  @ApiProperty({ enum: LEVELS, description: 'the worst level of all findings' }) level!: FindingLevel;
}

/** the unions' branches, registered with the document (they are only referenced) */
export const DOCTOR_EXTRA_MODELS = [ProbeOkDto, ProbeFailedDto, CloudOkDto, CloudFailedDto];
