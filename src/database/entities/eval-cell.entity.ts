import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One scenario × model × configuration of a run, with its statistics. */
@Entity({ name: 'eval_cells' })
export class EvalCellEntity {
  @PrimaryColumn('uuid', { name: 'run_id' }) runId!: string;
  @PrimaryColumn('text') key!: string;
  @Column('text', { name: 'scenario_id' }) scenarioId!: string;
  @Column('text') model!: string;
  @Column('text', { name: 'config_key' }) configKey!: string;
  @Column('jsonb') config!: Record<string, unknown>;
  @Column('int') trials!: number;
  @Column('int') passed!: number;
  @Column('int') failed!: number;
  /** no check applied to them: never passes */
  @Column('int', { default: 0 }) unjudged!: number;
  @Column('int') errored!: number;
  @Column('jsonb') statistics!: Record<string, unknown>;
  /** exact values of fields stored in readable form (see journal/storable-text.ts), as JSON */
  @Column('text', { nullable: true }) originals!: string | null;
}
