import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'events' })
export class EventEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: string;
  @Column('uuid', { name: 'session_id', nullable: true }) sessionId!: string | null;
  @Column('int') seq!: number;
  @Column('int', { nullable: true }) iteration!: number | null;
  @Column('text') type!: string;
  @Column('jsonb') payload!: Record<string, unknown>;
  @Column('timestamptz', { name: 'created_at' }) createdAt!: Date;
  @Column('text', { name: 'trace_id' }) traceId!: string;
  @Column('text', { name: 'span_id' }) spanId!: string;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
