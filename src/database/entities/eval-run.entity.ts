import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'eval_runs' })
export class EvalRunEntity {
  @PrimaryColumn('uuid') id!: string;
  @Column('text') status!: string;
  @Column('timestamptz', { name: 'started_at' }) startedAt!: Date;
  @Column('timestamptz', { name: 'finished_at', nullable: true }) finishedAt!: Date | null;
  @Column('int', { name: 'scenario_count' }) scenarioCount!: number;
  @Column('int', { name: 'trial_count' }) trialCount!: number;
  @Column('int') passed!: number;
  @Column('int') failed!: number;
  /** no check applied to them: never passes */
  @Column('int', { default: 0 }) unjudged!: number;
  @Column('int') errored!: number;
  @Column('jsonb') options!: Record<string, unknown>;
  @Column('text', { name: 'loupe_version', nullable: true }) loupeVersion!: string | null;
  @Column('int', { name: 'owner_pid' }) ownerPid!: number;
  @Column('text', { name: 'owner_host' }) ownerHost!: string;
  /** what the run varied and ran against: models, axes, trials, mode, Loupe revision, Ollama version */
  @Column('jsonb') config!: Record<string, unknown>;
  /** roll-ups per model, per configuration and for the whole run */
  @Column('jsonb', { nullable: true }) statistics!: Record<string, unknown> | null;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
