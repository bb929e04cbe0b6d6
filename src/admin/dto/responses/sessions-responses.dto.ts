import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { SessionPage } from '../../../journal/session-query.repository';
import type { StartedSession } from '../../../sessions/session-launcher.service';
import type { SessionVerdict, VerdictCheck } from '../../../sessions/session-verdict';
import type { SessionView } from '../../../sessions/sessions.service';
import { PendingApprovalDto } from './approvals-responses.dto';
import { rowOf, rowsOf } from './entity-schemas';

// the rows are typed by their entities (Recorded<…>); their schemas come from the entities' columns
type Rows<K extends keyof SessionView> = SessionView[K];

export class StartedSessionDto implements StartedSession {
  @ApiProperty({ format: 'uuid' }) sessionId!: string;
  @ApiProperty({ description: 'the process id recorded for it' }) pid!: number;
  @ApiProperty() model!: string;
  @ApiProperty() profile!: string;
  @ApiProperty({ enum: ['running'] }) status!: 'running';
  @ApiProperty({ description: "replies come from a private stand-in replaying the request's script" }) scripted!: boolean;
}

export class SessionPageDto implements SessionPage {
  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/SessionListItem' } }) items!: SessionPage['items'];
  @ApiProperty({ description: 'sessions that match, over every page' }) total!: number;
  @ApiProperty() limit!: number;
  @ApiProperty() offset!: number;
}

class VerdictCheckDto implements VerdictCheck {
  @ApiProperty({ example: 'termination: completed' }) expectation!: string;
  @ApiProperty() passed!: boolean;
  @ApiPropertyOptional({ description: 'why it failed (absent when it passed)' }) detail?: string;
}

class SessionVerdictDto implements SessionVerdict {
  @ApiProperty({ format: 'uuid' }) trialId!: string;
  @ApiProperty({ format: 'uuid' }) runId!: string;
  @ApiProperty({ description: "the run's cell: `scenarioId|model|configKey`" }) cellKey!: string;
  @ApiProperty() scenarioId!: string;
  @ApiProperty() scenarioTitle!: string;
  @ApiProperty() scenarioFile!: string;
  @ApiProperty() model!: string;
  @ApiProperty() trialIndex!: number;
  @ApiProperty() attempt!: number;
  @ApiProperty({ description: "the configuration's key ('' for the defaults)" }) configKey!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: "the configuration's overrides" }) config!: Record<
    string,
    unknown
  >;
  @ApiProperty({ type: String, nullable: true }) profile!: string | null;
  @ApiProperty({ example: 'scripted' }) mode!: string;
  @ApiProperty({ description: 'running until judged; then passed, failed, unjudged (no check applied), error, or interrupted' })
  status!: string;
  @ApiProperty({ description: 'a check applied to it (passed or failed)' }) judged!: boolean;
  @ApiProperty({ type: [VerdictCheckDto] }) checks!: VerdictCheckDto[];
  @ApiProperty({ type: [VerdictCheckDto] }) failed!: VerdictCheckDto[];
  @ApiProperty({ type: 'array', items: {} }) invariantViolations!: unknown[];
  @ApiProperty({ type: String, nullable: true }) error!: string | null;
  @ApiProperty({ type: Number, nullable: true }) durationMs!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'an interrupted trial: the attempt that reran it' }) replacedBy!: string | null;
}

export class SessionViewDto implements SessionView {
  @ApiProperty(rowOf('SessionRow')) session!: Rows<'session'>;
  @ApiProperty(rowsOf('MessageRow')) messages!: Rows<'messages'>;
  @ApiProperty(rowsOf('IterationView')) iterations!: Rows<'iterations'>;
  @ApiProperty(rowsOf('ToolCallRow')) toolCalls!: Rows<'toolCalls'>;
  @ApiProperty(rowsOf('EventRow')) events!: Rows<'events'>;
  @ApiProperty({ description: 'running in this Loupe process (so it can be sent messages, killed, approved)' }) live!: boolean;
  @ApiProperty({ type: [PendingApprovalDto] }) pendingApprovals!: PendingApprovalDto[];
  @ApiProperty({
    description: 'the highest message idx returned (-1: none): subscribe with afterMessageIdx set to it and no message is missed',
  })
  messagesUpTo!: number;
  @ApiProperty({ type: String, nullable: true, description: "the session's trace (null without LOUPE_TRACE_URL_TEMPLATE)" })
  traceUrl!: string | null;
  @ApiProperty({ type: SessionVerdictDto, nullable: true, description: 'the trial it ran for, with its verdict (null: not a trial)' })
  verdict!: SessionVerdictDto | null;
}

export class MessageQueuedDto {
  @ApiProperty({ enum: [true] }) queued!: true;
  @ApiProperty({ description: 'place in the queue, injected before the next iteration' }) position!: number;
}

export class KilledSessionDto {
  @ApiProperty({ format: 'uuid' }) sessionId!: string;
  @ApiProperty({ type: String, nullable: true, description: 'null when it had not closed its records within 5 s' })
  terminationReason!: string | null;
}
