import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { RunDetail, StartedRun } from '../../../eval/eval-runs.service';
import type {
  ComparisonCounts,
  ComparisonRow,
  ComparisonSide,
  ComparisonStatus,
  ComparisonVerdict,
  RunComparison,
} from '../../../eval/statistics/comparison-types';
import type { GroupLevel } from '../../../eval/statistics/grouping';
import type { Proportion } from '../../../eval/statistics/statistics-types';
import { rowOf, rowsOf } from './entity-schemas';

export class StartedRunDto implements StartedRun {
  @ApiProperty({ format: 'uuid' }) runId!: string;
  @ApiProperty({ enum: ['running'] }) status!: 'running';
  @ApiProperty({ description: 'scenarios loaded' }) scenarios!: number;
}

export class RunDetailDto implements RunDetail {
  @ApiProperty(rowOf('EvalRunRow')) run!: RunDetail['run'];
  @ApiProperty(rowsOf('EvalCellRow')) cells!: RunDetail['cells'];
  @ApiProperty(rowsOf('EvalTrialRow')) trials!: RunDetail['trials'];
}

const LEVELS = ['cell', 'model', 'config', 'run'] as const satisfies readonly GroupLevel[];
const VERDICTS = ['improved', 'regressed', 'no_significant_change'] as const satisfies readonly ComparisonVerdict[];
const STATUSES = ['compared', 'not_compared', 'changed', 'only_in_a', 'only_in_b'] as const satisfies readonly ComparisonStatus[];
// fails to compile when the comparison gains a level, verdict or status the document does not list
type Exhaustive<T extends string, L extends readonly string[]> = [Exclude<T, L[number]>] extends [never] ? true : never;
const exhaustive: [
  Exhaustive<GroupLevel, typeof LEVELS>,
  Exhaustive<ComparisonVerdict, typeof VERDICTS>,
  Exhaustive<ComparisonStatus, typeof STATUSES>,
] = [true, true, true];
void exhaustive;

export class ProportionDto implements Proportion {
  @ApiProperty() successes!: number;
  @ApiProperty() n!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'successes / n; null when n = 0' }) rate!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: '95% Wilson interval' }) lo!: number | null;
  @ApiProperty({ type: Number, nullable: true }) hi!: number | null;
}

class ComparisonSideDto implements ComparisonSide {
  @ApiProperty() trials!: number;
  @ApiProperty() passed!: number;
  @ApiProperty() failed!: number;
  @ApiProperty() unjudged!: number;
  @ApiProperty() errored!: number;
  @ApiProperty({ type: ProportionDto, description: 'passed / (passed + failed)' }) passRate!: ProportionDto;
}

class DiscordantDto {
  @ApiProperty({ description: 'pairs where b passed and a failed' }) onlyB!: number;
  @ApiProperty({ description: 'pairs where a passed and b failed' }) onlyA!: number;
}

class IntervalDto {
  @ApiProperty() lo!: number;
  @ApiProperty() hi!: number;
}

class ComparisonRowDto implements ComparisonRow {
  @ApiProperty({ enum: LEVELS }) level!: GroupLevel;
  @ApiProperty({ description: 'a cell `scenario|model|config`, a model, a configuration, or `run`' }) key!: string;
  @ApiProperty({ enum: STATUSES }) status!: ComparisonStatus;
  @ApiPropertyOptional({ description: 'why a row has no verdict' }) reason?: string;
  @ApiPropertyOptional({ type: [String], enum: ['scenario', 'tool_schema'] }) changed?: Array<'scenario' | 'tool_schema'>;
  @ApiPropertyOptional() unverified?: boolean;
  @ApiProperty({ type: ComparisonSideDto }) a!: ComparisonSideDto;
  @ApiProperty({ type: ComparisonSideDto }) b!: ComparisonSideDto;
  @ApiProperty({ type: String, enum: ['fisher_exact', 'mcnemar_exact'], nullable: true }) test!: 'fisher_exact' | 'mcnemar_exact' | null;
  @ApiPropertyOptional() pairs?: number;
  @ApiPropertyOptional({ type: DiscordantDto }) discordant?: DiscordantDto;
  @ApiProperty({ type: Number, nullable: true, description: "b's pass rate − a's" }) difference!: number | null;
  @ApiProperty({ type: IntervalDto, nullable: true, description: "Newcombe's interval of the difference" })
  differenceCi!: IntervalDto | null;
  @ApiProperty({ type: Number, nullable: true }) pValue!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Holm-adjusted p over the family' }) holm!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'Benjamini–Hochberg q over the family' }) q!: number | null;
  @ApiProperty({ type: String, enum: VERDICTS, nullable: true }) verdict!: ComparisonVerdict | null;
  @ApiProperty({ type: String, enum: VERDICTS, nullable: true }) fdrVerdict!: ComparisonVerdict | null;
}

class ComparisonCountsDto implements ComparisonCounts {
  @ApiProperty() regressed!: number;
  @ApiProperty() improved!: number;
  @ApiProperty() unchanged!: number;
  @ApiProperty() notCompared!: number;
}

class GateRegressionDto {
  @ApiProperty({ enum: LEVELS }) level!: GroupLevel;
  @ApiProperty() key!: string;
}

class GateDto {
  @ApiProperty({ description: 'a row regressed after Holm' }) fires!: boolean;
  @ApiProperty({ type: [GateRegressionDto] }) regressions!: GateRegressionDto[];
}

class RunComparisonDto implements RunComparison {
  @ApiProperty() alpha!: number;
  @ApiProperty() confidence!: number;
  @ApiProperty({ description: 'tests the corrections ran over' }) family!: number;
  @ApiProperty({ type: [ComparisonRowDto] }) cells!: ComparisonRowDto[];
  @ApiProperty({ type: [ComparisonRowDto] }) models!: ComparisonRowDto[];
  @ApiProperty({ type: [ComparisonRowDto] }) configs!: ComparisonRowDto[];
  @ApiProperty({ type: ComparisonRowDto }) run!: ComparisonRowDto;
  @ApiProperty({ type: ComparisonCountsDto }) counts!: ComparisonCountsDto;
  @ApiProperty({ type: ComparisonCountsDto }) fdrCounts!: ComparisonCountsDto;
  @ApiProperty() matchedCells!: number;
  @ApiProperty({ type: GateDto }) gate!: GateDto;
}

export class RunComparisonResultDto {
  @ApiProperty({ format: 'uuid' }) a!: string;
  @ApiProperty({ format: 'uuid' }) b!: string;
  @ApiProperty({ type: RunComparisonDto }) comparison!: RunComparisonDto;
}
