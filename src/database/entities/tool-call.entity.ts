import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'tool_calls' })
export class ToolCallEntity {
  @PrimaryColumn('uuid', { name: 'session_id' }) sessionId!: string;
  @PrimaryColumn('text') id!: string;
  @Column('int') iteration!: number;
  @Column('text') name!: string;
  @Column('jsonb') arguments!: Record<string, unknown>;
  @Column('text') status!: string;
  @Column('text', { nullable: true }) result!: string | null;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('int', { name: 'duration_ms', nullable: true }) durationMs!: number | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column('text', { name: 'trace_id' }) traceId!: string;
  @Column('text', { name: 'span_id' }) spanId!: string;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
