import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'iterations' })
export class IterationEntity {
  @PrimaryColumn('uuid', { name: 'session_id' }) sessionId!: string;
  @PrimaryColumn('int') idx!: number;
  @Column('text') model!: string;
  @Column('text') status!: string;
  @Column('text', { nullable: true }) outcome!: string | null;
  @Column('text', { name: 'finish_reason', nullable: true }) finishReason!: string | null;
  @Column('text', { name: 'tool_call_source', nullable: true }) toolCallSource!: string | null;
  @Column('int', { name: 'tool_call_count' }) toolCallCount!: number;
  @Column('int', { name: 'input_tokens', nullable: true }) inputTokens!: number | null;
  @Column('int', { name: 'output_tokens', nullable: true }) outputTokens!: number | null;
  @Column('int', { name: 'estimated_prompt_tokens', nullable: true }) estimatedPromptTokens!: number | null;
  @Column('int', { name: 'context_messages', nullable: true }) contextMessages!: number | null;
  @Column('int', { name: 'wall_ms', nullable: true }) wallMs!: number | null;
  @Column('int', { name: 'first_token_ms', nullable: true }) firstTokenMs!: number | null;
  @Column('int', { name: 'load_ms', nullable: true }) loadMs!: number | null;
  @Column('int', { name: 'prefill_ms', nullable: true }) prefillMs!: number | null;
  @Column('int', { name: 'decode_ms', nullable: true }) decodeMs!: number | null;
  @Column('int', { name: 'server_queue_ms', nullable: true }) serverQueueMs!: number | null;
  @Column('timestamptz', { name: 'started_at' }) startedAt!: Date;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column('text', { name: 'trace_id' }) traceId!: string;
  @Column('text', { name: 'span_id' }) spanId!: string;
  @Column('int', { name: 'approval_wait_ms' }) approvalWaitMs!: number;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
