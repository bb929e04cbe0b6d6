import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'eval_trials' })
export class EvalTrialEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('uuid', { name: 'run_id' }) runId!: string;
  @Column('text', { name: 'scenario_id' }) scenarioId!: string;
  @Column('text', { name: 'scenario_title' }) scenarioTitle!: string;
  @Column('text', { name: 'scenario_file' }) scenarioFile!: string;
  @Column('text', { name: 'scenario_hash' }) scenarioHash!: string;
  @Column('text') model!: string;
  @Column('int', { name: 'trial_index' }) trialIndex!: number;
  @Column('uuid', { name: 'session_id', nullable: true }) sessionId!: string | null;
  @Column('text') status!: string;
  @Column('jsonb') expectations!: unknown[];
  @Column('jsonb', { name: 'failed_expectations' }) failedExpectations!: unknown[];
  @Column('int') iterations!: number;
  @Column('int', { name: 'event_count' }) eventCount!: number;
  @Column('int', { name: 'duration_ms', nullable: true }) durationMs!: number | null;
  @Column('text', { nullable: true }) error!: string | null;
  @Column('timestamptz', { name: 'started_at' }) startedAt!: Date;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column('text', { name: 'config_key' }) configKey!: string;
  @Column('jsonb') config!: Record<string, unknown>;
  /** scripted (the stand-in replays the script) or live (a real model) */
  @Column('text') mode!: string;
  /** what can move its score: hashes of scenario, tools and system prompt, model digest, Ollama version, Loupe revision */
  @Column('jsonb') metadata!: Record<string, unknown>;
  /** pathologies, tokens and latency split, for the statistics */
  @Column('jsonb', { nullable: true }) outcome!: Record<string, unknown> | null;
  @Column('jsonb', { name: 'invariant_violations' }) invariantViolations!: unknown[];
  /** 1 for a trial's first run; a rerun of an interrupted trial (resume, a released worker job) counts on */
  @Column('int') attempt!: number;
  /** an interrupted trial: the attempt that reran it */
  @Column('uuid', { name: 'replaced_by', nullable: true }) replacedBy!: string | null;
  /** the `loupe worker` that ran it (null: the `loupe eval` process itself) */
  @Column('uuid', { name: 'worker_id', nullable: true }) workerId!: string | null;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
