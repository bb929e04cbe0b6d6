import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A `loupe worker` process taking trials of queued runs: where it runs, what it runs against, its heartbeat. */
@Entity({ name: 'eval_workers' })
export class EvalWorkerEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') name!: string;
  @Column('text') host!: string;
  @Column('int') pid!: number;
  @Column('text', { name: 'ollama_host', nullable: true }) ollamaHost!: string | null;
  /** trials it runs at once */
  @Column('int') slots!: number;
  /** running, stopped (left on its own) or dead (its heartbeat stopped; its trials were released) */
  @Column('text') status!: string;
  @Column('timestamptz', { name: 'started_at' }) startedAt!: Date;
  @Column('timestamptz', { name: 'heartbeat_at' }) heartbeatAt!: Date;
  @Column('timestamptz', { name: 'stopped_at', nullable: true }) stoppedAt!: Date | null;
  /** the queue jobs it holds now, with the trial and session each one runs */
  @Column('jsonb') jobs!: unknown[];
}
