import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { AvailableModels, ModelCheck } from '../../../provider/models.service';
import type { ModelDiagnosis } from '../../../provider/ollama/model-diagnostics';
import { MODEL_FAMILIES, type ModelFamily, type ToolCallingDecision, type ToolCallingMode } from '../../../provider/ollama/model-family';
import type { ModelDetail, RunningModel } from '../../../provider/ollama/ollama-models';
import type { ModelPullStatus } from '../../../provider/ollama/pull-tracker';

export const TOOL_CALLING_MODES = ['native', 'text', 'none'] as const satisfies readonly ToolCallingMode[];
export const TOOL_CALLING_REASONS = [
  'no_completion_capability',
  'cloud',
  'text_family',
  'no_tools_capability',
  'native',
] as const satisfies readonly ToolCallingDecision['reason'][];

export class ToolCallingDto implements Pick<ToolCallingDecision, 'mode' | 'reason'> {
  @ApiProperty({ enum: TOOL_CALLING_MODES, description: 'native tool calls, tools offered as text and parsed back, or none' })
  mode!: ToolCallingMode;
  @ApiProperty({ enum: TOOL_CALLING_REASONS }) reason!: ToolCallingDecision['reason'];
}

export class ModelDetailDto implements ModelDetail {
  @ApiProperty({ example: 'qwen3:8b' }) name!: string;
  @ApiProperty({ description: 'the Ollama that serves it' }) host!: string;
  @ApiProperty() sizeBytes!: number;
  @ApiProperty({ type: String, nullable: true }) family!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '8.2B' }) parameterSize!: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'Q4_K_M' }) quantization!: string | null;
  @ApiProperty({ type: [String], example: ['completion', 'tools', 'thinking'] }) capabilities!: string[];
  @ApiProperty() cloud!: boolean;
  @ApiProperty({ description: 'loaded now (/api/ps)' }) loaded!: boolean;
}

export class AvailableModelsDto implements AvailableModels {
  @ApiProperty() host!: string;
  @ApiProperty({ type: [ModelDetailDto] }) models!: ModelDetailDto[];
  @ApiProperty({ format: 'date-time', description: 'when the host was last asked' }) fetchedAt!: string;
  @ApiProperty() ageMs!: number;
}

export class ModelDiagnosisDto implements ModelDiagnosis {
  @ApiProperty() model!: string;
  @ApiProperty() installed!: boolean;
  @ApiProperty() cloud!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'the Ollama that serves it' }) host!: string | null;
  @ApiProperty() loaded!: boolean;
  @ApiProperty({ enum: MODEL_FAMILIES }) family!: ModelFamily;
  @ApiProperty({ type: ToolCallingDto }) toolCalling!: ToolCallingDto;
  @ApiProperty({
    oneOf: [{ type: 'boolean' }, { type: 'string' }],
    nullable: true,
    description: "the `think` field Loupe sends: false switches a local thinking model's reasoning off; gpt-oss gets a level",
  })
  think!: boolean | string | null;
  @ApiProperty({ type: [String], nullable: true }) capabilities!: string[] | null;
  @ApiProperty({ description: "share of the host's slot capacity one request takes" }) slotWeight!: number;
  @ApiProperty({ description: 'usable for an agent session as it stands' }) ok!: boolean;
  @ApiProperty({ type: [String] }) problems!: string[];
}

export class ModelCheckDto implements ModelCheck {
  @ApiProperty() host!: string;
  @ApiProperty() reachable!: boolean;
  @ApiProperty({ type: String, nullable: true }) version!: string | null;
  @ApiProperty({ type: [ModelDiagnosisDto] }) models!: ModelDiagnosisDto[];
}

export class ModelDetailWithDiagnosisDto extends ModelDetailDto {
  @ApiProperty({ type: ModelDiagnosisDto }) diagnosis!: ModelDiagnosisDto;
}

export class RunningModelDto implements RunningModel {
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'bytes in memory' }) size!: number;
  @ApiProperty({ description: 'of which in VRAM' }) sizeVram!: number;
  @ApiPropertyOptional({ description: 'the context it was loaded with' }) contextLength?: number;
}

export class ModelPullStatusDto implements ModelPullStatus {
  @ApiProperty() model!: string;
  @ApiProperty({ description: "Ollama's latest status text while running; exactly success or error once finished" }) status!: string;
  @ApiProperty({ description: '0–100 over the layers seen so far' }) percent!: number;
  @ApiProperty() completedBytes!: number;
  @ApiProperty() totalBytes!: number;
  @ApiPropertyOptional({ description: 'first 12 hex digits of the layer being downloaded' }) currentLayer?: string;
  @ApiPropertyOptional() error?: string;
  @ApiProperty({ description: 'ms since the epoch' }) startedAt!: number;
  @ApiPropertyOptional({ description: 'ms since the epoch' }) finishedAt?: number;
}

export class ModelDeletedDto {
  @ApiProperty() deleted!: string;
}
