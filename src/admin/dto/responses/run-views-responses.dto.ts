// The run page's and the lists' shapes (src/live/run-wire.ts, the session list's extra fields): DTOs
// that implement the types, so a field added there does not compile until it is documented here.
import { ApiProperty } from '@nestjs/swagger';
import type { SessionEntity } from '../../../database/entities';
import type { EvalRunRow, EvalTrialRow } from '../../../journal/journal-entry';
import type { SessionListItem, SessionTrialSummary } from '../../../journal/session-query.repository';
import type { LiveRun, LiveTrial, LiveTrialCheck, RunMode } from '../../../live/run-wire';
import type { RunPage } from '../../../eval/run-views';
import { rowsOf } from './entity-schemas';

const RUN_STATUSES = ['running', 'queued', 'finished', 'interrupted', 'failed'] as const satisfies readonly EvalRunRow['status'][];
const TRIAL_STATUSES = [
  'running',
  'passed',
  'failed',
  'unjudged',
  'error',
  'interrupted',
] as const satisfies readonly EvalTrialRow['status'][];
const MODES = ['replay', 'live', 'scripted', 'simulated', 'sim'] as const satisfies readonly RunMode[];
type Exhaustive<T extends string, L extends readonly string[]> = [Exclude<T, L[number]>] extends [never] ? true : never;
const exhaustive: [
  Exhaustive<EvalRunRow['status'], typeof RUN_STATUSES>,
  Exhaustive<EvalTrialRow['status'], typeof TRIAL_STATUSES>,
  Exhaustive<RunMode, typeof MODES>,
] = [true, true, true];
void exhaustive;

export class LiveRunDto implements LiveRun {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: RUN_STATUSES }) status!: EvalRunRow['status'];
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'finished: its whole duration; running: null' }) durationMs!: number | null;
  @ApiProperty({
    enum: MODES,
    description: 'replay, live, scripted, simulated (live trials on the stand-in), or sim (simulated models: personas, `sim:<persona>`)',
  })
  mode!: RunMode;
  @ApiProperty({ type: [String] }) models!: string[];
  @ApiProperty({ type: [String], description: "configuration keys ('' is the scenarios' own settings)" }) configurations!: string[];
  @ApiProperty({ type: [String], description: 'the loop profiles its trials ran under' }) profiles!: string[];
  @ApiProperty() scenarioCount!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null: a run recorded before plans were stored' }) plannedTrials!:
    number | null;
  @ApiProperty({ description: 'trials with a verdict so far' }) finishedTrials!: number;
  @ApiProperty() passed!: number;
  @ApiProperty() failed!: number;
  @ApiProperty() unjudged!: number;
  @ApiProperty() errored!: number;
  @ApiProperty({ type: Number, nullable: true }) passRate!: number | null;
}

class LiveTrialCheckDto implements LiveTrialCheck {
  @ApiProperty() expectation!: string;
  @ApiProperty({ type: String, nullable: true }) detail!: string | null;
}

class TokensDto {
  @ApiProperty() input!: number;
  @ApiProperty() output!: number;
}

export class LiveTrialDto implements LiveTrial {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) runId!: string;
  @ApiProperty() scenarioId!: string;
  @ApiProperty() model!: string;
  @ApiProperty() configKey!: string;
  @ApiProperty() trialIndex!: number;
  @ApiProperty() attempt!: number;
  @ApiProperty({ type: String, nullable: true, description: 'an interrupted attempt that a later one reran' }) replacedBy!: string | null;
  @ApiProperty({ enum: TRIAL_STATUSES }) status!: EvalTrialRow['status'];
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) sessionId!: string | null;
  @ApiProperty({ type: String, nullable: true }) profile!: string | null;
  @ApiProperty() iterations!: number;
  @ApiProperty({ type: Number, nullable: true }) durationMs!: number | null;
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: [LiveTrialCheckDto], description: 'the checks that failed, with their messages' }) failed!: LiveTrialCheckDto[];
  @ApiProperty({ type: String, nullable: true }) terminationReason!: string | null;
  @ApiProperty({ type: TokensDto, nullable: true }) tokens!: TokensDto | null;
  @ApiProperty({ type: Number, nullable: true, description: 'first token of the first model call' }) firstTokenMs!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'working time (approval waits left out)' }) workingMs!: number | null;
  @ApiProperty({ format: 'date-time' }) startedAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) finishedAt!: string | null;
}

export class RunPageDto implements RunPage {
  @ApiProperty({ type: LiveRunDto }) run!: LiveRunDto;
  @ApiProperty({ ...rowsOf('EvalCellRow'), description: 'the statistics of each cell, written when the run finishes' })
  cells!: RunPage['cells'];
  @ApiProperty({ type: [LiveTrialDto], description: 'every attempt, replaced ones included' }) trials!: LiveTrialDto[];
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: "the run's statistics (null until it finishes)" })
  statistics!: Record<string, unknown> | null;
}

export class SessionTrialSummaryDto implements SessionTrialSummary {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ format: 'uuid' }) runId!: string;
  @ApiProperty() scenarioId!: string;
  @ApiProperty() scenarioTitle!: string;
  @ApiProperty() model!: string;
  @ApiProperty() configKey!: string;
  @ApiProperty() trialIndex!: number;
  @ApiProperty({ enum: TRIAL_STATUSES }) status!: string;
}

type ListFields = Omit<SessionListItem, keyof SessionEntity>;

/** A session list row's fields beside its columns (merged with SessionRow into SessionListItem). */
export class SessionListFieldsDto implements ListFields {
  @ApiProperty({ description: 'its first 300 characters' }) prompt!: string;
  @ApiProperty() promptTruncated!: boolean;
  @ApiProperty({ type: String, nullable: true }) profile!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'start to finish (null while it runs)' }) durationMs!: number | null;
  @ApiProperty({ type: SessionTrialSummaryDto, nullable: true }) trial!: SessionTrialSummaryDto | null;
}

/** components made of a row's columns with fields of the API's own over them (later wins) */
export const MERGED_SCHEMAS = {
  SessionListItem: ['SessionRow', 'SessionListFieldsDto'],
  RunListItem: ['EvalRunRow', 'LiveRunDto'],
} as const;

export const RUN_VIEW_EXTRA_MODELS = [SessionListFieldsDto, LiveRunDto];
