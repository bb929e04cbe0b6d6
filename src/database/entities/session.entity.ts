import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'sessions' })
export class SessionEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('int') pid!: number;
  @Column('text') agent!: string;
  @Column('text') model!: string;
  @Column('text') status!: string;
  @Column('text', { name: 'termination_reason', nullable: true }) terminationReason!: string | null;
  @Column('int', { name: 'exit_code', nullable: true }) exitCode!: number | null;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('text') prompt!: string;
  @Column('text', { name: 'council_role', nullable: true }) councilRole!: string | null;
  @Column('uuid', { name: 'trial_id', nullable: true }) trialId!: string | null;
  @Column('text', { nullable: true }) workspace!: string | null;
  @Column('jsonb') config!: Record<string, unknown>;
  @Column('int') iterations!: number;
  @Column('int', { name: 'tool_call_count' }) toolCallCount!: number;
  @Column('int', { name: 'input_tokens' }) inputTokens!: number;
  @Column('int', { name: 'output_tokens' }) outputTokens!: number;
  @Column('timestamptz', { name: 'started_at' }) startedAt!: Date;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column('text', { name: 'trace_id' }) traceId!: string;
  @Column('text', { name: 'span_id' }) spanId!: string;
  @Column('int', { name: 'owner_pid' }) ownerPid!: number;
  @Column('text', { name: 'owner_host' }) ownerHost!: string;
  @Column('int', { name: 'approval_wait_ms' }) approvalWaitMs!: number;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
