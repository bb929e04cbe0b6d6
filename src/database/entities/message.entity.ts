import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'messages' })
export class MessageEntity {
  @PrimaryColumn('uuid', { name: 'session_id' }) sessionId!: string;
  @PrimaryColumn('int') idx!: number;
  @Column('text') role!: string;
  @Column('text') kind!: string;
  @Column('text') content!: string;
  @Column('jsonb', { name: 'tool_calls', nullable: true }) toolCalls!: unknown[] | null;
  @Column('text', { name: 'tool_call_id', nullable: true }) toolCallId!: string | null;
  @Column('text', { name: 'tool_name', nullable: true }) toolName!: string | null;
  @Column('text', { nullable: true }) thinking!: string | null;
  @Column('int', { nullable: true }) iteration!: number | null;
  @Column('timestamptz', { name: 'compacted_at', nullable: true }) compactedAt!: Date | null;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('text', { name: 'trace_id' }) traceId!: string;
  @Column('text', { name: 'span_id' }) spanId!: string;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
